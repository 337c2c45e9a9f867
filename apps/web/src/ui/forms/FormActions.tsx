import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SavedNotice } from './SavedNotice';

/**
 * Revert and Save at the foot of an edit form. Save is enabled only when `canSave` (the page's own
 * rule: required values, dirty, valid) and nothing is being saved.
 */
export function FormActions(props: {
  form: { dirty: boolean; committing: boolean; saved?: boolean | undefined; revert(): void };
  canSave: boolean;
  onSave(): void;
  saveLabel?: string | undefined;
  showRevert?: boolean | undefined;
}) {
  const { t } = useTranslation();
  const { form } = props;
  return (
    <Group justify="flex-end">
      <SavedNotice saved={form.saved === true} />
      {props.showRevert !== false && (
        <Button
          variant="default"
          disabled={!form.dirty || form.committing}
          onClick={form.revert}
          data-testid="revert"
        >
          {t('accounts.revert')}
        </Button>
      )}
      <Button
        onClick={props.onSave}
        disabled={!props.canSave || form.committing}
        loading={form.committing}
        data-testid="save"
      >
        {props.saveLabel ?? t('accounts.save')}
      </Button>
    </Group>
  );
}
