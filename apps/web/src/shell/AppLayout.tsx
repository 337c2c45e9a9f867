import { PRODUCT_NAME } from '@dossier/core';
import { Anchor, AppShell, Box, Burger, Container, Group, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from '../view/createStore';
import { useViewLocationSync, ViewOutlet } from '../view/ViewOutlet';
import { ErrorBanner } from './ErrorBanner';
import { Menu } from './Menu';
import { NotificationBell } from './notifications/NotificationBell';
import { PageErrorBoundary } from './PageErrorBoundary';
import { useServices } from './ServicesContext';
import { SignInOverlayGate } from './SignInOverlayGate';
import { SignOutButton } from './SignOutButton';
import { TasksOverlay } from './tasks/TasksOverlay';
import { TasksToggle } from './tasks/TasksToggle';
import { useLive } from './useLive';

/** The page without a signed-in user (sign-in, registration): no menu, just the page. */
function AnonymousLayout() {
  return (
    <Container size="lg" py="md" data-testid="anonymous-layout">
      <ErrorBanner />
      <PageErrorBoundary>
        <ViewOutlet />
      </PageErrorBoundary>
      <SignInOverlayGate />
    </Container>
  );
}

function SignedInLayout({ userName }: { userName: string }) {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t(opened ? 'shell.closeMenu' : 'shell.openMenu')}
              data-testid="burger"
            />
            <Anchor component={Link} to="/" underline="never" c="inherit" data-testid="product-name">
              <Text fw={700} size="lg">
                {PRODUCT_NAME}
              </Text>
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <NotificationBell />
            <TasksToggle />
            <Box visibleFrom="sm">
              <Anchor component={Link} to="/account" size="sm" c="inherit" data-testid="user-name">
                {userName}
              </Anchor>
            </Box>
            <SignOutButton />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" data-testid="navbar">
        <AppShell.Section grow component={ScrollArea}>
          <Menu onNavigate={close} />
        </AppShell.Section>
        {/* On a narrow screen the header has no room for the name, so the burger menu holds it. */}
        <AppShell.Section
          hiddenFrom="sm"
          pt="xs"
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Anchor component={Link} to="/account" onClick={close} size="sm" data-testid="navbar-account">
            {t('shell.account', { name: userName })}
          </Anchor>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <ErrorBanner />
        <PageErrorBoundary>
          <ViewOutlet />
        </PageErrorBoundary>
      </AppShell.Main>
      <TasksOverlay />
      <SignInOverlayGate />
    </AppShell>
  );
}

export function AppLayout() {
  const { session } = useServices();
  const user = useStore(session, (s) => s.user);
  useViewLocationSync();
  useLive();
  return user ? <SignedInLayout userName={user.name} /> : <AnonymousLayout />;
}
