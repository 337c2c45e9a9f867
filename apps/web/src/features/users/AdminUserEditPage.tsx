import {
  type AdminUserView,
  createUserRoute,
  fieldErrorsOf,
  ipRangeForScope,
  passwordFieldsShown,
  updateUserRoute,
  validateUserForm,
} from '@dossier/core';
import { Container, Group, Paper, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { FormActions } from '../../ui/forms/FormActions';
import { HistoryList } from '../../ui/forms/HistoryList';
import { ReadOnlyNotice } from '../../ui/forms/ReadOnlyNotice';
import { useFormPage } from '../../ui/forms/useFormPage';
import { FlagField, UserFields } from '../../ui/UserFields';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { LockoutNotice } from './LockoutNotice';
import { PendingRoleClaims } from './PendingRoleClaims';
import { RolesEditor, ScopeNamesContext } from './RolesEditor';
import { SecondFactorNotice } from './SecondFactorNotice';
import { SingleSignOnLink } from './SingleSignOnLink';

type User = AdminUserView['user'];

/** /admin/users/edit/{userId}: every field of the user, its roles and its history. */
export const AdminUserEditPage = definePage<AdminUserView>(({ view }) => {
  const { t } = useTranslation();
  const form = useFormPage<AdminUserView>();
  const { session } = useServices();
  const features = useStore(session, (s) => s.features);
  const [repeatPassword, setRepeatPassword] = useState('');
  const creating = view.userId === null;
  const scope = view.scopes.find((s) => s.scopePath === view.user.scope);
  const rules = {
    creating,
    passwordRequired: false,
    scopeRequired: true,
    policy: scope?.passwordPolicy,
    repeatPassword,
  };
  // The body's shape as the server validates it (the contract's), then the form's rules, which need
  // the password policy of the scope chosen: the server runs both again.
  const clientErrors = {
    ...fieldErrorsOf(updateUserRoute.body?.safeParse(view.user).error?.issues ?? []),
    ...validateUserForm(view.user, rules),
  };
  const valid = Object.keys(clientErrors).length === 0;
  const disabled = !view.canEdit;

  const set = <K extends keyof User>(field: K, value: User[K]) =>
    form.edit((v) => ({ ...v, user: { ...v.user, [field]: value } }), String(field));

  function changeScope(scopePath: string | null) {
    const next = view.scopes.find((s) => s.scopePath === scopePath);
    form.edit((v) => {
      // The range is reset to the first of the new scope when the current one is not among them.
      const ipRange = ipRangeForScope(v.user.ipRange, next?.ipRanges ?? []);
      return { ...v, user: { ...v.user, scope: scopePath ?? '', ipRange } };
    }, 'scope');
  }

  async function save() {
    const result = await form.saveAndOpen(
      { create: createUserRoute, update: updateUserRoute, param: 'userId' },
      creating ? null : view.userId,
      view.user,
      (saved) => saved.userId,
    );
    if (result.ok) setRepeatPassword('');
  }

  return (
    <ScopeNamesContext.Provider value={view.scopeNames ?? {}}>
      <Container size="lg" data-testid="admin-user-page">
        <Title order={2} mb="md" data-testid="page-title">
          {view.title}
        </Title>
        <Stack>
          {!view.canEdit && <ReadOnlyNotice reason={view.readOnlyReason} />}
          {view.userId && view.user.isTemporaryLockedOut && (
            <LockoutNotice userId={view.userId} disabled={disabled} />
          )}
          {view.userId && view.secondFactors && (
            <SecondFactorNotice userId={view.userId} kinds={view.secondFactors} disabled={disabled} />
          )}
          <Paper withBorder p="md">
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={t('accounts.fields.scope')}
                  data={view.scopes.map((s) => ({ value: s.scopePath, label: `${s.scopePath} (${s.name})` }))}
                  value={view.user.scope || null}
                  onChange={changeScope}
                  error={form.errorOf(clientErrors, 'scope')}
                  disabled={disabled}
                  required
                  data-testid="user-scope"
                  allowDeselect={false}
                />
                <Select
                  label={t('accounts.fields.ipRange')}
                  data={(scope?.ipRanges ?? []).map((r) => r.id)}
                  value={view.user.ipRange}
                  onChange={(value) => set('ipRange', value)}
                  error={form.errorOf(clientErrors, 'ipRange')}
                  clearable
                  disabled={disabled || (scope?.ipRanges.length ?? 0) === 0}
                  data-testid="user-ipRange"
                />
              </SimpleGrid>
              <UserFields
                user={view.user}
                showUserId={creating}
                showPassword={passwordFieldsShown(features.singleSignOn, view.user.externalUserId)}
                showAdminFields
                repeatPassword={repeatPassword}
                disabled={disabled}
                errorOf={(field) => form.errorOf(clientErrors, field)}
                onChange={(field, value) => set(field, value)}
                onRepeatPassword={(value) => {
                  setRepeatPassword(value);
                  form.touch('repeatPassword');
                }}
              />
              {view.user.externalUserId && view.userId && (
                <SingleSignOnLink
                  userId={view.userId}
                  externalUserId={view.user.externalUserId}
                  setBy={view.externalUserIdSetBy ?? null}
                  canUnlink={view.canEdit}
                />
              )}
              <Group>
                <FlagField
                  label={t('accounts.fields.disabled')}
                  checked={view.user.disabled}
                  disabled={disabled}
                  testId="user-disabled"
                  onChange={(v) => set('disabled', v)}
                />
                <FlagField
                  label={t('accounts.fields.passwordMustBeChangedAtNextLogin')}
                  checked={view.user.passwordMustBeChangedAtNextLogin}
                  disabled={disabled}
                  testId="user-passwordMustChange"
                  onChange={(v) => set('passwordMustBeChangedAtNextLogin', v)}
                />
              </Group>
            </Stack>
          </Paper>
          <RolesEditor
            mode="admin"
            roles={view.user.roles}
            groups={view.roleGroups}
            roleScopes={view.roleScopes}
            disabled={disabled}
            initiallyAdding={view.action === 'addRole' && !disabled}
            onChange={(roles) => set('roles', roles)}
            error={form.errorOf({}, 'roles')}
          />
          {view.userId && <PendingRoleClaims userId={view.userId} claims={view.pendingRoles ?? []} />}
          <FormActions form={form} canSave={!disabled && form.dirty && valid} onSave={() => void save()} />
          <HistoryList entries={view.history} />
        </Stack>
      </Container>
    </ScopeNamesContext.Provider>
  );
});
