import { isValidScopePath, newConfigurationRoute, normalizeScopePath, queryStringOf } from '@dossier/core';
import { Badge, Button, Container, Group, Paper, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { definePage } from '../../view/page';
import { type ConfigurationListView, entryPath } from './types';

/** /admin/configuration: the configurations, and a form to add one by scope path. */
export const ConfigurationListPage = definePage<ConfigurationListView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const [scopePath, setScopePath] = useState('');
  const [adding, setAdding] = useState(false);
  const normalized = scopePath.trim() ? normalizeScopePath(scopePath) : '';
  const duplicate =
    normalized !== '' && view.configurations.some((c) => !c.isInherited && c.scopePath === normalized);
  // The one scope path rule of every scope field, said before Add is pressed.
  const invalid = normalized !== '' && !isValidScopePath(normalized);

  async function add() {
    setAdding(true);
    try {
      const created = await api.call(newConfigurationRoute, { query: { scopePath: normalized } });
      navigate(
        `${entryPath(created.id, 'c')}${queryStringOf({ scopePath: created.scopePath, name: created.name })}`,
      );
    } catch (error) {
      store.report(error);
    } finally {
      setAdding(false);
    }
  }

  return (
    <Container size="lg" data-testid="configuration-list">
      <Title order={2} mb="md">
        {t('configuration.list.title')}
      </Title>
      <Table striped highlightOnHover mb="lg" data-testid="configuration-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('configuration.fields.id')}</Table.Th>
            <Table.Th>{t('configuration.fields.name')}</Table.Th>
            <Table.Th>{t('configuration.fields.scopePath')}</Table.Th>
            <Table.Th>{t('configuration.fields.order')}</Table.Th>
            <Table.Th>{t('configuration.list.inherits')}</Table.Th>
            <Table.Th>{t('configuration.fields.isDisabled')}</Table.Th>
            <Table.Th>{t('configuration.fields.isInherited')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.configurations.map((c) => (
            <Table.Tr key={c.id || c.scopePath} data-testid={`configuration-row-${c.id || c.scopePath}`}>
              <Table.Td>
                {c.id ? (
                  <Link to={entryPath(c.id, 'c')}>{c.id}</Link>
                ) : (
                  view.canEdit && (
                    <Button size="compact-xs" variant="subtle" onClick={() => setScopePath(c.scopePath)}>
                      {t('configuration.list.addFor')}
                    </Button>
                  )
                )}
              </Table.Td>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>
                <code>{c.scopePath}</code>
              </Table.Td>
              <Table.Td>{c.order}</Table.Td>
              <Table.Td>{c.inherits[0]?.name ?? ''}</Table.Td>
              <Table.Td>{c.isDisabled ? <Badge color="gray">{t('configuration.yes')}</Badge> : ''}</Table.Td>
              <Table.Td>{c.isInherited ? <Badge>{t('configuration.yes')}</Badge> : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {view.canEdit && (
        <Paper withBorder p="md" maw={560}>
          <Text fw={600} mb="xs">
            {t('configuration.list.addTitle')}
          </Text>
          <Group align="flex-start">
            <TextInput
              flex={1}
              label={t('configuration.fields.scopePath')}
              placeholder="/entityType/<id or name>/"
              required
              value={scopePath}
              onChange={(e) => setScopePath(e.currentTarget.value)}
              onBlur={() => setScopePath(normalized)}
              error={
                invalid
                  ? t('configuration.rules.scopePath')
                  : duplicate
                    ? t('configuration.list.duplicate')
                    : undefined
              }
              data-testid="add-scope-path"
            />
            <Button
              mt={25}
              onClick={add}
              disabled={!normalized || duplicate || invalid || adding}
              data-testid="add-configuration"
            >
              {t('configuration.add')}
            </Button>
          </Group>
        </Paper>
      )}
    </Container>
  );
});
