import { type HomeItem, type HomeSection, type HomeView, PRODUCT_NAME } from '@dossier/core';
import { Anchor, Badge, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../ui/dates';
import { definePage } from '../../view/page';

export type { HomeView };

/**
 * The home page (issue 22 "the first hour"): the user's own work in sections, each item a link to
 * where it is worked and each section a link to its whole list. Which sections a user gets is the
 * server's decision (features/home/policy.ts).
 */
export const HomePage = definePage<HomeView>(({ view }) => {
  const { t } = useTranslation();
  const sections = view.sections ?? [];
  return (
    <Container size="lg" data-testid="home-page">
      <Title order={2} mb="xs">
        {view.name
          ? t('home.welcomeUser', { name: view.name })
          : t('home.welcome', { product: PRODUCT_NAME })}
      </Title>
      <Text c="dimmed" mb="md">
        {view.lastVisitAt
          ? t('home.lastVisit', { at: formatDateTime(view.lastVisitAt) })
          : t('home.intro', { product: PRODUCT_NAME })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {sections.map((section) => (
          <SectionCard key={section.key} section={section} />
        ))}
      </SimpleGrid>
    </Container>
  );
});

function SectionCard({ section }: { section: HomeSection }) {
  const { t } = useTranslation();
  const count = section.countIsCapped ? `${section.count}+` : String(section.count);
  const urgent = section.key === 'overdueTasks' || section.key === 'failedMail';
  return (
    <Card withBorder padding="md" data-testid={`home-section-${section.key}`}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={4}>{t(`home.sections.${section.key}.title`)}</Title>
        <Badge
          color={urgent && section.count > 0 ? 'red' : 'gray'}
          variant="light"
          data-testid="home-section-count"
        >
          {count}
        </Badge>
      </Group>
      {section.items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="home-section-empty">
          {t(`home.sections.${section.key}.empty`)}
        </Text>
      ) : (
        <Stack gap={6}>
          {section.items.map((item) => (
            <ItemLine key={item.id} section={section.key} item={item} />
          ))}
        </Stack>
      )}
      {section.href && section.count > section.items.length && (
        <Anchor component={Link} to={section.href} size="sm" mt="sm" data-testid="home-section-all">
          {t('home.showAll', { count })}
        </Anchor>
      )}
    </Card>
  );
}

function ItemLine({ section, item }: { section: HomeSection['key']; item: HomeItem }) {
  const { t } = useTranslation();
  // Task types and request statuses are words of the page; senders' and addresses are shown as is.
  const kind =
    item.kind === null
      ? null
      : section === 'overdueTasks' || section === 'tasksDueToday' || section === 'waitingOnSender'
        ? t(`taskTypes.${item.kind}`, { defaultValue: item.kind })
        : section === 'recentRequests' || section === 'changedSinceVisit'
          ? t(`home.statuses.${item.kind}`, { defaultValue: item.kind })
          : item.kind;
  return (
    <div data-testid="home-item">
      <Group gap={6} wrap="nowrap">
        <Anchor component={Link} to={item.href} size="sm" data-testid="home-item-link">
          {item.requestNumber ?? item.title}
        </Anchor>
        {kind && (
          <Text span size="xs" c="dimmed">
            {kind}
          </Text>
        )}
      </Group>
      <Group justify="space-between" gap={6} wrap="nowrap">
        <Text size="xs" lineClamp={1}>
          {item.requestNumber ? item.title : ''}
        </Text>
        {item.at && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(item.at)}
          </Text>
        )}
      </Group>
    </div>
  );
}
