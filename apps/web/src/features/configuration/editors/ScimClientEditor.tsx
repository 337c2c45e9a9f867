import {
  createScimTokenRoute,
  ROLES,
  SCIM_SUBJECT_ATTRIBUTES,
  type ScimTokenState,
  scimTokenStatusRoute,
} from '@dossier/core';
import { ActionIcon, Alert, Button, Code, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { copyToClipboard } from '../../../ui/clipboard';
import type { EditorProps } from '../types';

/** The client's bearer token: made on request, shown once, replaced by making a new one. */
function ScimToken({ configurationId, entryId }: { configurationId: string; entryId: string }) {
  const { t, i18n } = useTranslation();
  const { view } = useServices();
  const [state, setState] = useState<ScimTokenState>();
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setState(await api.call(scimTokenStatusRoute, { params: { c: configurationId, id: entryId } }));
    } catch (error) {
      view.report(error);
    }
  }, [configurationId, entryId, view]);
  useEffect(() => {
    void load();
  }, [load]);
  async function create() {
    if (state?.hint && !window.confirm(t('scim.replaceConfirm'))) return;
    setBusy(true);
    try {
      setState(await api.call(createScimTokenRoute, { params: { c: configurationId, id: entryId } }));
    } catch (error) {
      view.report(error);
    } finally {
      setBusy(false);
    }
  }
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '');
  return (
    <Stack gap="xs" data-testid="scim-token">
      <Title order={5}>{t('scim.token')}</Title>
      {state?.token && (
        <Alert color="yellow" title={t('scim.copyNow')} data-testid="scim-token-once">
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="scim-token-value" style={{ wordBreak: 'break-all' }}>
              {state.token}
            </Code>
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => void copyToClipboard(state.token ?? '')}
            >
              {t('scim.copy')}
            </Button>
          </Group>
        </Alert>
      )}
      {state && !state.token && (
        <Text size="sm" c="dimmed" data-testid="scim-token-status">
          {state.hint
            ? t('scim.tokenExists', {
                hint: state.hint,
                createdAt: when(state.createdAt),
                by: state.createdBy ?? '',
              })
            : t('scim.noToken')}
          {state.lastUsedAt ? ` ${t('scim.lastUsed', { at: when(state.lastUsedAt) })}` : ''}
        </Text>
      )}
      <Group>
        <Button
          variant="default"
          loading={busy}
          onClick={() => void create()}
          data-testid="scim-token-create"
        >
          {state?.hint ? t('scim.replaceToken') : t('scim.createToken')}
        </Button>
      </Group>
    </Stack>
  );
}

export function ScimClientEditor({ data, onChange, errors, disabled, view }: EditorProps<'scimClientEntry'>) {
  const { t } = useTranslation();
  const baseUrl = `${window.location.origin}/scim/v2`;
  const setRow = (i: number, change: Partial<(typeof data.groupRoles)[number]>) =>
    onChange({ ...data, groupRoles: data.groupRoles.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  return (
    <Stack gap="sm">
      <TextInput label={t('scim.baseUrl')} value={baseUrl} readOnly data-testid="scim-base-url" />
      <Select
        label={t('scim.subjectAttribute')}
        description={t('scim.subjectAttributeHint')}
        data={SCIM_SUBJECT_ATTRIBUTES.map((value) => ({ value, label: t(`scim.subjects.${value}`) }))}
        value={data.subjectAttribute}
        onChange={(v) => v && onChange({ ...data, subjectAttribute: v as typeof data.subjectAttribute })}
        allowDeselect={false}
        disabled={disabled}
        data-testid="scim-subject-attribute"
      />
      <Title order={5}>{t('scim.groupRoles')}</Title>
      <Text size="sm" c="dimmed">
        {t('scim.groupRolesHint', { scopePath: view.configuration.scopePath })}
      </Text>
      {data.groupRoles.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; their place is who they are
        <Group key={i} align="flex-start" wrap="nowrap" data-testid="scim-group-role">
          <TextInput
            label={t('scim.group')}
            value={row.group}
            onChange={(e) => setRow(i, { group: e.currentTarget.value })}
            error={errors[`groupRoles.${i}.group`]}
            disabled={disabled}
            data-testid="scim-group-name"
          />
          <Select
            label={t('scim.role')}
            data={ROLES.map((r) => ({ value: r, label: r.replace('c:roles:', '') }))}
            value={row.role || null}
            onChange={(v) => setRow(i, { role: v ?? '' })}
            error={errors[`groupRoles.${i}.role`]}
            disabled={disabled}
            data-testid="scim-group-role-select"
          />
          <TextInput
            label={t('scim.scopePath')}
            value={row.scopePath}
            onChange={(e) => setRow(i, { scopePath: e.currentTarget.value })}
            error={errors[`groupRoles.${i}.scopePath`]}
            disabled={disabled}
            data-testid="scim-group-scope"
          />
          <ActionIcon
            mt={28}
            variant="subtle"
            color="red"
            aria-label={t('scim.removeMapping')}
            disabled={disabled}
            onClick={() => onChange({ ...data, groupRoles: data.groupRoles.filter((_, j) => j !== i) })}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="default"
          size="compact-sm"
          disabled={disabled}
          onClick={() =>
            onChange({
              ...data,
              groupRoles: [
                ...data.groupRoles,
                { group: '', role: '', scopePath: view.configuration.scopePath },
              ],
            })
          }
          data-testid="scim-add-mapping"
        >
          {t('scim.addMapping')}
        </Button>
      </Group>
      {view.isNew || view.entry.isInherited || !view.canEdit ? (
        <Text size="sm" c="dimmed">
          {t('scim.saveFirst')}
        </Text>
      ) : (
        <ScimToken configurationId={view.configuration.id} entryId={view.entry.id} />
      )}
    </Stack>
  );
}
