import {
  EXTERNAL_ROLE,
  formatRoleString,
  parseRoleString,
  type RoleGrantDraft,
  type RoleScopeOption,
  roleForScope,
  validateRoleGrant,
} from '@dossier/core';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RolesEditorProps {
  roles: string[];
  /** self: the account page (external role only); admin: user administration. */
  mode: 'self' | 'admin';
  roleScopes: RoleScopeOption[];
  disabled?: boolean | undefined;
  /** Opens the add-role subview at once (?action=addRole). */
  initiallyAdding?: boolean;
  /** Roles the user claimed that an administrator has not approved yet: they grant nothing. */
  pending?: string[] | undefined;
  /** Roles an identity provider's groups grant (SCIM), with the names of those groups. */
  groups?: Record<string, string[]> | undefined;
  error?: string | undefined;
  onChange(roles: string[]): void;
}

export function roleLabel(
  t: (key: string, options: { defaultValue: string }) => string,
  role: string,
): string {
  return t(`admin.roles.${role.replaceAll(':', '_')}`, { defaultValue: role });
}

/** Organisation names of scope paths (the page's view gives them): people read names, not paths. */
export const ScopeNamesContext = createContext<Record<string, string>>({});

/** A granted or claimed role as the user reads it: its name, organisation and external reference. */
export function RoleText({ text }: { text: string }) {
  const { t } = useTranslation();
  const names = useContext(ScopeNamesContext);
  const parsed = parseRoleString(text);
  const organisation = parsed ? names[parsed.scope] : undefined;
  return (
    <Group gap="xs">
      <Badge variant="light">{parsed ? roleLabel(t, parsed.role) : text}</Badge>
      {organisation && (
        <Text size="sm" fw={500} data-testid="role-organisation">
          {organisation}
        </Text>
      )}
      <Text size="sm" {...(organisation ? { c: 'dimmed' } : {})}>
        {parsed?.scope}
      </Text>
      {parsed?.externalReference && (
        <Text size="sm" c="dimmed">
          {t('accounts.roles.reference')}: {parsed.externalReference}
        </Text>
      )}
    </Group>
  );
}

/** The role list with remove buttons and the add-role subview. */
export function RolesEditor(props: RolesEditorProps) {
  const { t } = useTranslation();
  const names = useContext(ScopeNamesContext);
  const [adding, setAdding] = useState(props.initiallyAdding ?? false);
  const [grant, setGrant] = useState<RoleGrantDraft>({});
  const [tried, setTried] = useState(false);
  const self = props.mode === 'self';
  const role = self ? EXTERNAL_ROLE : grant.role;
  const offeredRoles = props.roleScopes.find((s) => s.scopePath === grant.scope)?.roles ?? [];
  const errors = validateRoleGrant(grant, self);
  const errorOf = (field: string) => (tried ? errors[field] : undefined);

  function add() {
    setTried(true);
    if (Object.keys(errors).length > 0 || !grant.scope || !role) return;
    const reference = role === EXTERNAL_ROLE ? grant.externalReference?.trim() : undefined;
    const text = formatRoleString({
      role,
      scope: grant.scope,
      ...(reference ? { externalReference: reference } : {}),
    });
    if (!props.roles.includes(text)) props.onChange([...props.roles, text]);
    setGrant({});
    setTried(false);
    setAdding(false);
  }

  return (
    <Paper withBorder p="md" data-testid="roles">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('accounts.roles.title')}</Title>
        {!adding && !props.disabled && (
          <Button size="xs" variant="light" onClick={() => setAdding(true)} data-testid="role-add-open">
            {t('accounts.roles.add')}
          </Button>
        )}
      </Group>
      <Stack gap={4}>
        {props.roles.length === 0 && <Text c="dimmed">{t('accounts.roles.none')}</Text>}
        {props.roles.map((text) => {
          const parsed = parseRoleString(text);
          const removable = !props.disabled && (!self || parsed?.role === EXTERNAL_ROLE);
          return (
            <Group key={text} justify="space-between" data-testid="role-item" data-role={text}>
              <Group gap="xs">
                <RoleText text={text} />
                {props.groups?.[text] && (
                  <Badge color="grape" variant="light" tt="none" data-testid="role-groups">
                    {t('accounts.roles.fromGroups', {
                      count: props.groups[text].length,
                      groups: props.groups[text].join(', '),
                    })}
                  </Badge>
                )}
                {props.pending?.includes(text) && (
                  <Badge color="yellow" variant="light" data-testid="role-pending">
                    {t('accounts.roles.pending')}
                  </Badge>
                )}
              </Group>
              {removable && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('accounts.roles.remove')}
                  onClick={() => props.onChange(props.roles.filter((r) => r !== text))}
                  data-testid="role-remove"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          );
        })}
      </Stack>
      {props.error && (
        <Text c="red" size="sm" mt="xs" data-testid="roles-error">
          {props.error}
        </Text>
      )}
      {adding && (
        <Paper withBorder p="sm" mt="md" data-testid="role-add">
          <Stack>
            <Select
              label={t('accounts.roles.scope')}
              data={props.roleScopes.map((s) => ({
                value: s.scopePath,
                label: names[s.scopePath] ?? s.scopePath,
              }))}
              value={grant.scope ?? null}
              onChange={(scope) =>
                setGrant((g) => {
                  const offered = props.roleScopes.find((s) => s.scopePath === scope)?.roles ?? [];
                  // A role not offered at the new scope is cleared.
                  return {
                    ...g,
                    scope: scope ?? undefined,
                    role: roleForScope(g.role, offered),
                  };
                })
              }
              error={errorOf('scope')}
              required
              data-testid="role-scope"
              allowDeselect={false}
            />
            {!self && (
              <Select
                label={t('accounts.roles.role')}
                data={offeredRoles.map((r) => ({ value: r, label: roleLabel(t, r) }))}
                value={grant.role ?? null}
                onChange={(r) => setGrant((g) => ({ ...g, role: r ?? undefined }))}
                disabled={!grant.scope}
                error={errorOf('role')}
                required
                data-testid="role-role"
                allowDeselect={false}
              />
            )}
            {role === EXTERNAL_ROLE && (
              <TextInput
                label={t('accounts.roles.externalReference')}
                description={t('accounts.roles.externalReferenceHint')}
                value={grant.externalReference ?? ''}
                onChange={(e) => {
                  const externalReference = e.currentTarget.value;
                  setGrant((g) => ({ ...g, externalReference }));
                }}
                error={errorOf('externalReference')}
                required
                data-testid="role-reference"
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAdding(false)} data-testid="role-add-cancel">
                {t('accounts.cancel')}
              </Button>
              <Button onClick={add} data-testid="role-add-confirm">
                {t('accounts.roles.addConfirm')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Paper>
  );
}
