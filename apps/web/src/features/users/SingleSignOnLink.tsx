import { pathOfRoute, SSO_LINKED_BY_VERIFIED_EMAIL, unlinkSingleSignOnRoute } from '@dossier/core';
import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';

/**
 * The account's link to single sign-on: the external user id, who or what set it (an administrator,
 * a SCIM client, or the first sign-in by verified email), and Unlink from single sign-on for an administrator who may change the user.
 */
export function SingleSignOnLink({
  userId,
  externalUserId,
  setBy,
  canUnlink,
}: {
  userId: string;
  externalUserId: string;
  setBy: string | null;
  canUnlink: boolean;
}) {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const [busy, setBusy] = useState(false);
  async function unlink() {
    if (!window.confirm(t('scim.link.confirm'))) return;
    setBusy(true);
    await store.commit(pathOfRoute(unlinkSingleSignOnRoute.path, { userId }), {});
    setBusy(false);
  }
  const by = setBy?.startsWith('scim:')
    ? t('scim.link.bySCIM', { client: setBy.slice('scim:'.length) })
    : setBy === SSO_LINKED_BY_VERIFIED_EMAIL
      ? t('scim.link.byVerifiedEmail')
      : setBy
        ? t('scim.link.byUser', { user: setBy })
        : undefined;
  return (
    <Group align="flex-end" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        label={t('accounts.fields.externalUserId')}
        description={by}
        value={externalUserId}
        readOnly
        data-testid="user-externalUserId"
      />
      {canUnlink && (
        <Button
          variant="default"
          color="red"
          loading={busy}
          onClick={() => void unlink()}
          data-testid="user-unlink-sso"
        >
          {t('scim.link.unlink')}
        </Button>
      )}
    </Group>
  );
}
