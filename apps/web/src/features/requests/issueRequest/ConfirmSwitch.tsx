import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Asks before a template replaces a message the user has edited (issueRequest). */
export function ConfirmSwitch(props: { opened: boolean; onConfirm(): void; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={t('issueRequest.switchTitle')} centered>
      <Text data-testid="issueRequest-switch-prompt">{t('issueRequest.switchPrompt')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={props.onCancel} data-testid="issueRequest-switch-cancel">
          {t('issueRequest.switchCancel')}
        </Button>
        <Button color="red" onClick={props.onConfirm} data-testid="issueRequest-switch-confirm">
          {t('issueRequest.switchConfirm')}
        </Button>
      </Group>
    </Modal>
  );
}
