import {
  type AccountView,
  canSaveUserForm,
  passwordFieldsShown,
  registerAccountRoute,
  type UserFieldValues,
  updateAccountRoute,
  validateUserForm,
} from '@dossier/core';
import { Alert, Anchor, Container, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { FormActions } from '../../ui/forms/FormActions';
import { useFormPage } from '../../ui/forms/useFormPage';
import { UserFields } from '../../ui/UserFields';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { RolesEditor, ScopeNamesContext } from '../users';
import { SecondFactorsPanel } from './SecondFactorsPanel';

/** /account (Account: {userId}) and /account/create (Register New Account): one form. */
export const AccountPage = definePage<AccountView>(({ view }) => {
  const { t } = useTranslation();
  const { session } = useServices();
  const features = useStore(session, (s) => s.features);
  const form = useFormPage<AccountView>();
  const [repeatPassword, setRepeatPassword] = useState('');
  const creating = view.$type === 'accountCreate';
  const showPassword =
    creating ||
    (view.canChangePassword && passwordFieldsShown(features.singleSignOn, view.user.externalUserId));
  const rules = {
    creating,
    passwordRequired: creating,
    scopeRequired: false,
    policy: view.passwordPolicy,
    repeatPassword,
  };
  const clientErrors = validateUserForm(view.user, rules);
  const canSave = canSaveUserForm(view.user, rules, {
    dirty: form.dirty || repeatPassword.length > 0,
    busy: form.committing,
  });
  // A commit of the view protocol: the route answers the refreshed page (or the registration's outcome).
  const path = (creating ? registerAccountRoute : updateAccountRoute).path;

  const set = (field: keyof UserFieldValues, value: string) =>
    form.edit((v) => ({ ...v, user: { ...v.user, [field]: value } }), field);

  async function save() {
    const result = await form.commit(path, view.user);
    if (!result.ok) return;
    setRepeatPassword('');
    // The header names the signed-in user: a rename shows there at once, not after a reload.
    const name = (result.view as Partial<AccountView>).user?.name;
    if (!creating && name) session.set((s) => (s.user ? { user: { ...s.user, name } } : s));
  }

  return (
    <ScopeNamesContext.Provider value={view.scopeNames ?? {}}>
      <Container size="md" data-testid={creating ? 'account-create-page' : 'account-page'}>
        <Title order={2} mb="md" data-testid="page-title">
          {view.title}
        </Title>
        <Stack>
          {creating && <Alert color="blue">{t('accounts.register.intro')}</Alert>}
          {creating && (
            <Anchor href="/signin" data-testid="register-signin-link">
              {t('accounts.register.backToSignIn')}
            </Anchor>
          )}
          {!creating && view.emailConfirmed === false && (
            <Alert color="yellow" data-testid="email-unconfirmed">
              {t('accounts.emailUnconfirmed', { email: view.user.email })}
            </Alert>
          )}
          {!creating && view.pendingEmail && (
            <Alert color="blue" data-testid="email-pending">
              {t('accounts.emailPending', { email: view.pendingEmail, current: view.user.email })}
            </Alert>
          )}
          <Paper withBorder p="md">
            <UserFields
              user={view.user}
              showUserId={creating}
              showPassword={showPassword}
              passwordRequired={creating}
              repeatPassword={repeatPassword}
              errorOf={(field) => form.errorOf(clientErrors, field)}
              onChange={set}
              onRepeatPassword={(value) => {
                setRepeatPassword(value);
                form.touch('repeatPassword');
              }}
            />
            {showPassword && !creating && (
              <PasswordInput
                mt="md"
                label={t('accounts.fields.currentPassword')}
                description={t('accounts.fields.currentPasswordHint')}
                value={view.user.currentPassword ?? ''}
                onChange={(e) => {
                  const currentPassword = e.currentTarget.value;
                  form.edit((v) => ({ ...v, user: { ...v.user, currentPassword } }), 'currentPassword');
                }}
                error={form.errorOf({}, 'currentPassword')}
                autoComplete="current-password"
                data-testid="user-form-currentPassword"
              />
            )}
          </Paper>
          {(view.pendingRoles?.length ?? 0) > 0 && (
            <Alert color="yellow" data-testid="roles-pending">
              {t('accounts.roles.pendingHint')}
            </Alert>
          )}
          <RolesEditor
            mode="self"
            roles={view.user.roles}
            pending={view.pendingRoles}
            roleScopes={view.roleScopes.map((scopePath) => ({ scopePath, roles: [] }))}
            initiallyAdding={view.action === 'addRole'}
            onChange={(roles) => form.edit((v) => ({ ...v, user: { ...v.user, roles } }), 'roles')}
            error={form.errorOf({}, 'roles')}
          />
          <FormActions
            form={form}
            canSave={canSave}
            onSave={() => void save()}
            showRevert={!creating}
            saveLabel={creating ? t('accounts.register.submit') : undefined}
          />
          {!creating && <SecondFactorsPanel />}
        </Stack>
      </Container>
    </ScopeNamesContext.Provider>
  );
});
