import {
  decideRoleClaimRoute,
  type PendingRole,
  pathOfRoute,
  type View,
  type WaitingClaim,
} from '@dossier/core';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useServices } from '../../shell/ServicesContext';
import { formatDateTime } from '../../ui/dates';
import { RoleText } from './RolesEditor';

/**
 * The external roles a user claimed for itself, each with Approve and Refuse for an administrator
 * of its scope. Approved, the claim becomes a role; refused, it is gone.
 */
export function PendingRoleClaims({ userId, claims }: { userId: string; claims: PendingRole[] }) {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (claims.length === 0) return null;

  async function decide(claimId: string, decision: 'approve' | 'refuse') {
    setBusy(true);
    const path = pathOfRoute(decideRoleClaimRoute.path, { userId, claimId, decision });
    const result = await store.commit(path, {});
    setBusy(false);
    // A refused newcomer is outside this administrator's scopes again: back to the list.
    if (result.ok && (result.view as View).$type !== 'adminUser') navigate('/admin/users');
  }

  return (
    <Paper withBorder p="md" data-testid="role-claims">
      <Title order={4} mb="sm">
        {t('accounts.roles.claims')}
      </Title>
      <Stack gap={4}>
        {claims.map((c) => (
          <Group key={c.id} justify="space-between" data-testid="role-claim" data-role={c.role}>
            <Group gap="xs">
              <RoleText text={c.role} />
              <Text size="sm" c="dimmed">
                {t('accounts.roles.claimedAt')} {formatDateTime(c.claimedAt)}
              </Text>
            </Group>
            {c.canDecide && (
              <Group gap="xs">
                <Button
                  size="xs"
                  disabled={busy}
                  onClick={() => void decide(c.id, 'approve')}
                  data-testid="claim-approve"
                >
                  {t('accounts.roles.approve')}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  disabled={busy}
                  onClick={() => void decide(c.id, 'refuse')}
                  data-testid="claim-refuse"
                >
                  {t('accounts.roles.refuse')}
                </Button>
              </Group>
            )}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

/** The claims waiting for this administrator, on the users page: each opens its user. */
export function WaitingRoleClaims({ claims }: { claims: WaitingClaim[] }) {
  const { t } = useTranslation();
  if (claims.length === 0) return null;
  return (
    <Paper withBorder p="md" mb="md" data-testid="waiting-role-claims">
      <Title order={4} mb="sm">
        {t('accounts.roles.claims')}
      </Title>
      <Stack gap={4}>
        {claims.map((c) => (
          <Group key={c.id} gap="md" data-testid="waiting-role-claim">
            <Anchor component={Link} to={`/admin/users/edit/${encodeURIComponent(c.userId)}`}>
              {c.userName} ({c.userId})
            </Anchor>
            <RoleText text={c.role} />
            <Text size="sm" c="dimmed">
              {formatDateTime(c.claimedAt)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
