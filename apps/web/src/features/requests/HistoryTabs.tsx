import type { RequestHistoryEntry } from '@dossier/core';
import { Paper, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Access } from './Access';
import { History } from './History';

/** History and, for administrators and managers of the request's scope, Access: who read it. */
export function HistoryTabs({
  requestNumber,
  entries,
}: {
  requestNumber: string;
  entries: RequestHistoryEntry[];
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md">
      {/* The Access panel mounts (and fetches) only when its tab is chosen. */}
      <Tabs defaultValue="history" keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="history" data-testid="history-tab">
            {t('request.history.title')}
          </Tabs.Tab>
          <Tabs.Tab value="access" data-testid="access-tab">
            {t('request.access.tab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="history">
          <History requestNumber={requestNumber} entries={entries} inTab />
        </Tabs.Panel>
        <Tabs.Panel value="access">
          <Access requestNumber={requestNumber} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
