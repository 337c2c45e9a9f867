import {
  queryStringOf,
  type SkillsMode,
  saveSkillsRoute,
  skillLevelsRoute,
  skillStatusRoute,
  type TaskSkillsView,
} from '@dossier/core';
import {
  Button,
  Checkbox,
  ColorSwatch,
  Container,
  Group,
  SegmentedControl,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { useUnsavedPrompt } from '../../shell/useUnsavedPrompt';
import { definePage } from '../../view/page';
import { type SkillEdits, saveBody, setEdit, skillValue, statusEditable } from './skillEdits';

/**
 * /tasks/skills/levels and /tasks/skills/status: per user and trainable task type the level
 * (untrained/trained) or the status (inactive/active, editable only when trained), saved together.
 */
export const TaskSkillsPage = definePage<TaskSkillsView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const [edits, setEdits] = useState<SkillEdits>({});
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState(view.name);
  const dirty = Object.keys(edits).length > 0;
  useUnsavedPrompt(dirty);
  // A new page of users (or the other mode) starts without changes.
  useEffect(() => setEdits({}), []);

  const on = view.mode === 'levels' ? 'trained' : 'active';
  const off = view.mode === 'levels' ? 'untrained' : 'inactive';
  const go = (mode: SkillsMode, offset = 0) => {
    const route = mode === 'levels' ? skillLevelsRoute : skillStatusRoute;
    const query = { name: name.trim() || undefined, pageOffset: offset > 0 ? offset : undefined };
    void navigate(`${route.path}${queryStringOf(query)}`);
  };

  async function save() {
    setSaving(true);
    try {
      await api.call(saveSkillsRoute, { body: saveBody(view.users, view.mode, edits) });
      setEdits({});
      await store.reload();
    } catch (error) {
      store.report(error);
    } finally {
      setSaving(false);
    }
  }

  const first = view.paging.offset + 1;
  const last = view.paging.offset + view.users.length;
  const summary =
    view.total === 0
      ? t('skills.summary.none')
      : view.total === 1
        ? t('skills.summary.one')
        : view.users.length === view.total
          ? t('skills.summary.all', { count: view.total })
          : t('skills.summary.range', { first, last, total: view.total });

  return (
    <Container size="xl" data-testid="task-skills-page">
      <Group justify="space-between" mb="md">
        <Title order={2}>{view.title}</Title>
        <SegmentedControl
          value={view.mode}
          onChange={(mode) => go(mode as SkillsMode)}
          data={[
            { value: 'levels', label: t('skills.modes.levels') },
            { value: 'status', label: t('skills.modes.status') },
          ]}
          data-testid="task-skills-mode"
        />
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          go(view.mode);
        }}
      >
        <Group align="flex-end" mb="sm">
          <TextInput
            label={t('skills.search')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="task-skills-search"
          />
          <Button type="submit" variant="default">
            {t('skills.find')}
          </Button>
        </Group>
      </form>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed" data-testid="task-skills-summary">
          {summary}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            disabled={view.paging.offset === 0}
            onClick={() => go(view.mode, Math.max(0, view.paging.offset - view.paging.size))}
          >
            {t('skills.previous')}
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={last >= view.total}
            onClick={() => go(view.mode, view.paging.offset + view.paging.size)}
          >
            {t('skills.next')}
          </Button>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={900}>
        <Table striped withTableBorder data-testid="task-skills-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('skills.columns.user')}</Table.Th>
              <Table.Th>{t('skills.columns.scope')}</Table.Th>
              {view.taskTypes.map((type) => (
                <Table.Th key={type} style={{ fontSize: 'var(--mantine-font-size-xs)', textAlign: 'center' }}>
                  {t(`taskTypes.${type}`, { defaultValue: type })}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.users.map((user) => (
              <Table.Tr key={user.userId} data-testid={`skills-row-${user.userId}`}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Tooltip label={user.isOnline ? t('skills.online') : t('skills.offline')}>
                      <ColorSwatch
                        size={10}
                        withShadow={false}
                        color={user.isOnline ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-4)'}
                        // A label needs a role to be read out: the dot is an image of the status.
                        role="img"
                        aria-label={user.isOnline ? t('skills.online') : t('skills.offline')}
                        data-testid="skills-online"
                        data-online={user.isOnline}
                      />
                    </Tooltip>
                    <div>
                      <Text size="sm">{user.name}</Text>
                      <Text size="xs" c="dimmed">
                        {user.userId}
                      </Text>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{user.scope}</Text>
                </Table.Td>
                {view.taskTypes.map((type) => {
                  const value = skillValue(user, view.mode, type, edits);
                  const locked = view.mode === 'status' && !statusEditable(user, type);
                  const label = `${user.name}: ${t(`taskTypes.${type}`, { defaultValue: type })}`;
                  return (
                    <Table.Td key={type} style={{ textAlign: 'center' }}>
                      <Tooltip label={locked ? t('skills.untrainedHint') : t(`skills.values.${value}`)}>
                        <Checkbox
                          style={{ display: 'inline-block' }}
                          aria-label={label}
                          checked={value === on}
                          disabled={locked || saving}
                          onChange={(e) =>
                            setEdits((current) =>
                              setEdit(current, user, view.mode, type, e.currentTarget.checked ? on : off),
                            )
                          }
                          data-testid={`skill-${user.userId}-${type}`}
                        />
                      </Tooltip>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group mt="md">
        <Button
          onClick={() => void save()}
          disabled={!dirty || saving}
          loading={saving}
          data-testid="task-skills-save"
        >
          {t('skills.save')}
        </Button>
        <Button variant="default" onClick={() => setEdits({})} disabled={!dirty || saving}>
          {t('skills.cancel')}
        </Button>
      </Group>
    </Container>
  );
});
