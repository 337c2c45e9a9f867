import { deleteEntryRoute } from '@dossier/core';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServices } from '../../shell/ServicesContext';

/**
 * Delete, beyond Disable: asks first; the server refuses while something depends on the entry (the
 * banner says what) and records the deletion. The root entry's delete removes the configuration.
 */
export function DeleteEntry(props: {
  configurationId: string;
  entryId: string;
  name: string;
  isConfiguration: boolean;
}) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const what = props.isConfiguration ? 'configuration' : 'entry';

  async function confirm() {
    setBusy(true);
    try {
      const { next } = await api.call(deleteEntryRoute, {
        params: { c: props.configurationId, id: props.entryId },
      });
      setAsking(false);
      navigate(next, { replace: true });
    } catch (error) {
      setAsking(false);
      store.report(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button color="red" variant="light" onClick={() => setAsking(true)} data-testid="delete-entry">
        {t(`configuration.delete.${what}`)}
      </Button>
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={t(`configuration.delete.${what}`)}
        centered
      >
        <Text mb="md">{t(`configuration.delete.${what}Question`, { name: props.name })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsking(false)}>
            {t('configuration.delete.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={confirm} data-testid="delete-entry-confirm">
            {t(`configuration.delete.${what}`)}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
