import {
  DEFAULT_PASSWORD_POLICY,
  GROUPING_BEHAVIOURS,
  type IpRange,
  ROLES,
  SCOPE_USAGES,
} from '@dossier/core';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CommittedTextInput,
  IdentifierInput,
  IntegerInput,
  LinesInput,
  ScopePathInput,
} from '../../../ui/inputs';
import type { EditorProps } from '../types';
import { move, replaceAt } from './common';

const POLICY_FIELDS = [
  'minLength',
  'minUpperCase',
  'minLowerCase',
  'minDigits',
  'minSymbolOrPunctation',
] as const;

export function ScopeEditor({ data, onChange, errors, disabled, view }: EditorProps<'scopeEntry'>) {
  const { t } = useTranslation();
  const set = (change: Partial<typeof data>) => onChange({ ...data, ...change });
  const setRange = (i: number, range: IpRange) => set({ ipRanges: replaceAt(data.ipRanges, i, range) });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={3}>
        <ScopePathInput
          label={t('configuration.fields.scopePath')}
          required
          value={data.scopePath}
          onCommit={(scopePath) => set({ scopePath })}
          error={errors.scopePath}
          disabled={disabled}
          data-testid="scope-scope-path"
        />
        <CommittedTextInput
          label={t('configuration.scope.legalEntity')}
          value={data.legalEntity}
          onCommit={(legalEntity) => set({ legalEntity })}
          disabled={disabled}
        />
        <CommittedTextInput
          label={t('configuration.scope.parentLegalEntity')}
          value={data.parentLegalEntity}
          onCommit={(parentLegalEntity) => set({ parentLegalEntity })}
          disabled={disabled}
        />
      </SimpleGrid>
      <Checkbox.Group
        label={t('configuration.scope.usages')}
        value={data.usages}
        onChange={(v) => set({ usages: v as typeof data.usages })}
      >
        <Group mt="xs">
          {SCOPE_USAGES.map((u) => (
            <Checkbox key={u} value={u} label={t(`configuration.scopeUsages.${u}`)} disabled={disabled} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox
        label={t('configuration.scope.linkSsoByVerifiedEmail')}
        description={t('configuration.scope.linkSsoByVerifiedEmailHint')}
        checked={data.linkSsoByVerifiedEmail}
        onChange={(e) => set({ linkSsoByVerifiedEmail: e.currentTarget.checked })}
        disabled={disabled}
        data-testid="scope-linkSsoByVerifiedEmail"
      />
      <Checkbox.Group
        label={t('configuration.scope.secondFactorRoles')}
        description={t('configuration.scope.secondFactorRolesHint')}
        value={data.secondFactorRoles ?? []}
        onChange={(v) => set({ secondFactorRoles: v as typeof data.secondFactorRoles })}
        data-testid="scope-secondFactorRoles"
      >
        <Group mt="xs">
          {ROLES.map((role) => (
            <Checkbox
              key={role}
              value={role}
              label={t(`admin.roles.${role.replaceAll(':', '_')}`, { defaultValue: role })}
              disabled={disabled}
            />
          ))}
        </Group>
      </Checkbox.Group>
      {(data.scopePath === '/' || (data.trustedAddresses ?? []).length > 0) && (
        <LinesInput
          label={t('configuration.scope.trustedAddresses')}
          description={t('configuration.scope.trustedAddressesHint')}
          minRows={2}
          value={data.trustedAddresses ?? []}
          onCommit={(trustedAddresses) => set({ trustedAddresses })}
          error={errors.trustedAddresses}
          disabled={disabled}
          data-testid="scope-trustedAddresses"
        />
      )}
      {view.choices.scopeTags.length > 0 && (
        <SimpleGrid cols={3}>
          {view.choices.scopeTags.map((tag) => (
            <Select
              key={tag.id}
              label={tag.name}
              clearable
              value={data.scopeTags[tag.id] ?? null}
              data={tag.options.map((o) => ({ value: o.id, label: o.name }))}
              onChange={(v) => {
                const scopeTags = { ...data.scopeTags };
                if (v) scopeTags[tag.id] = v;
                else delete scopeTags[tag.id];
                set({ scopeTags });
              }}
              disabled={disabled}
            />
          ))}
        </SimpleGrid>
      )}
      <SimpleGrid cols={2}>
        <ScopePathInput
          label={t('configuration.scope.assignWorkflowTaskScope')}
          value={data.assignWorkflowTaskScope}
          onCommit={(v) => set({ assignWorkflowTaskScope: v })}
          error={errors.assignWorkflowTaskScope}
          disabled={disabled}
        />
        {data.usages.includes('assignWorkflowTask') && (
          <Select
            label={t('configuration.scope.workflowTaskAssignerGroupingBehaviour')}
            value={data.workflowTaskAssignerGroupingBehaviour}
            data={GROUPING_BEHAVIOURS.map((g) => ({ value: g, label: t(`configuration.grouping.${g}`) }))}
            onChange={(v) =>
              v &&
              set({
                workflowTaskAssignerGroupingBehaviour: v as typeof data.workflowTaskAssignerGroupingBehaviour,
              })
            }
            disabled={disabled}
            data-testid="scope-grouping"
          />
        )}
      </SimpleGrid>
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('configuration.scope.ipRanges')}
        </Text>
        {errors.ipRanges && (
          <Text c="red" size="xs">
            {errors.ipRanges}
          </Text>
        )}
        {data.ipRanges.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="ip-ranges-empty">
            {t('configuration.scope.noIpRanges')}
          </Text>
        ) : (
          <Radio.Group
            value={data.ipRanges.find((r) => r.isDefault)?.id ?? ''}
            onChange={(id) => set({ ipRanges: data.ipRanges.map((r) => ({ ...r, isDefault: r.id === id })) })}
          >
            <Stack gap="xs">
              {data.ipRanges.map((range, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their inputs follow their value
                <Paper key={i} withBorder p="xs">
                  <Group align="flex-start">
                    <IdentifierInput
                      label={t('configuration.fields.id')}
                      value={range.id}
                      onCommit={(id) => setRange(i, { ...range, id })}
                      error={errors[`ipRanges.${i}.id`]}
                      disabled={disabled}
                    />
                    <LinesInput
                      label={t('configuration.scope.cidrs')}
                      minRows={2}
                      value={range.cidrs}
                      onCommit={(cidrs) => setRange(i, { ...range, cidrs })}
                      error={errors[`ipRanges.${i}.cidrs`]}
                      disabled={disabled}
                      flex={1}
                    />
                    <Radio
                      mt={30}
                      value={range.id}
                      label={t('configuration.fields.isDefault')}
                      disabled={disabled || !range.id}
                    />
                    <Group gap={2} mt={26}>
                      <ActionIcon
                        variant="subtle"
                        onClick={() => set({ ipRanges: move(data.ipRanges, i, -1) })}
                        disabled={disabled || i === 0}
                        aria-label={t('configuration.moveUp')}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        onClick={() => set({ ipRanges: move(data.ipRanges, i, 1) })}
                        disabled={disabled || i === data.ipRanges.length - 1}
                        aria-label={t('configuration.moveDown')}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => set({ ipRanges: data.ipRanges.filter((_, j) => j !== i) })}
                        disabled={disabled}
                        aria-label={t('configuration.remove')}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Radio.Group>
        )}
        {!disabled && (
          <Button
            size="xs"
            variant="default"
            mt="xs"
            onClick={() =>
              set({
                ipRanges: [...data.ipRanges, { id: '', isDefault: data.ipRanges.length === 0, cidrs: [] }],
              })
            }
          >
            {t('configuration.scope.addIpRange')}
          </Button>
        )}
      </div>
      <Checkbox
        label={t('configuration.scope.ownPasswordPolicy')}
        checked={!!data.passwordPolicy}
        onChange={(e) =>
          set({ passwordPolicy: e.currentTarget.checked ? { ...DEFAULT_PASSWORD_POLICY } : undefined })
        }
        disabled={disabled}
      />
      {data.passwordPolicy && (
        <SimpleGrid cols={5}>
          {POLICY_FIELDS.map((f) => (
            <IntegerInput
              key={f}
              label={t(`configuration.passwordPolicy.${f}`)}
              min={f === 'minLength' ? 1 : 0}
              max={f === 'minLength' ? 256 : 64}
              value={data.passwordPolicy?.[f]}
              onCommit={(v) =>
                data.passwordPolicy && set({ passwordPolicy: { ...data.passwordPolicy, [f]: v ?? 0 } })
              }
              disabled={disabled}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
