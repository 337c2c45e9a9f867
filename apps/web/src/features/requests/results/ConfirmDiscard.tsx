import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The discard confirmation of results and invoices, in the spec's words. */
export function ConfirmDiscard(props: {
  opened: boolean;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={t('results.actions.discard')} centered>
      <Text data-testid="discard-confirmation">{t('results.discardConfirmation')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={props.onCancel} data-testid="discard-cancel">
          {t('results.actions.cancel')}
        </Button>
        <Button color="red" loading={props.busy} onClick={props.onConfirm} data-testid="discard-confirm">
          {t('results.actions.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
