import type { UserFieldValues } from '@dossier/core';
import { Checkbox, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AddressTextarea, CountrySelect } from './directoryInputs';

export interface UserFieldsProps {
  user: UserFieldValues;
  showUserId: boolean;
  showPassword: boolean;
  showAdminFields?: boolean;
  passwordRequired?: boolean;
  repeatPassword: string;
  disabled?: boolean | undefined;
  errorOf(field: string): string | undefined;
  onChange(field: keyof UserFieldValues, value: string): void;
  onRepeatPassword(value: string): void;
}

/** Multi-line errors (the password policy) keep their lines. */
export function ErrorText({ message }: { message?: string | undefined }) {
  if (!message) return undefined;
  return (
    <Text style={{ whiteSpace: 'pre-line' }} size="xs" c="red" component="span">
      {message}
    </Text>
  );
}

/** The personal fields of the account page, self-registration and user administration. */
export function UserFields(props: UserFieldsProps) {
  const { t } = useTranslation();
  const { user, errorOf, onChange } = props;
  const text = (field: keyof UserFieldValues, required = false, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`accounts.fields.${field}`)}
      value={user[field] ?? ''}
      onChange={(e) => onChange(field, e.currentTarget.value)}
      error={errorOf(field)}
      required={required}
      {...(props.disabled !== undefined && { disabled: props.disabled })}
      data-testid={`user-form-${field}`}
      {...extra}
    />
  );
  return (
    <Stack>
      {props.showUserId &&
        text('userId', true, { autoComplete: 'username', description: t('accounts.fields.userIdHint') })}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('name', true, { autoComplete: 'name' })}
        {text('email', true, { autoComplete: 'email', type: 'email' })}
        {text('phone', true, { autoComplete: 'tel', description: t('accounts.fields.phoneHint') })}
        {props.showAdminFields && text('alternatePhone')}
        {props.showAdminFields && (
          <CountrySelect
            label={t('accounts.fields.country')}
            value={user.country}
            onChange={(code) => onChange('country', code ?? '')}
            error={errorOf('country')}
            {...(props.disabled !== undefined && { disabled: props.disabled })}
            data-testid="user-form-country"
          />
        )}
        {props.showAdminFields && text('language')}
      </SimpleGrid>
      {props.showAdminFields && (
        <AddressTextarea
          label={t('accounts.fields.address')}
          value={user.address}
          onChange={(value) => onChange('address', value)}
          error={errorOf('address')}
          {...(props.disabled !== undefined && { disabled: props.disabled })}
          data-testid="user-form-address"
        />
      )}
      {props.showPassword && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t('accounts.fields.password')}
            value={user.password ?? ''}
            onChange={(e) => onChange('password', e.currentTarget.value)}
            error={errorOf('password') ? <ErrorText message={errorOf('password')} /> : undefined}
            {...(props.passwordRequired !== undefined && { required: props.passwordRequired })}
            {...(props.disabled !== undefined && { disabled: props.disabled })}
            autoComplete="new-password"
            data-testid="user-form-password"
          />
          <PasswordInput
            label={t('accounts.fields.repeatPassword')}
            value={props.repeatPassword}
            onChange={(e) => props.onRepeatPassword(e.currentTarget.value)}
            error={errorOf('repeatPassword')}
            required={(user.password ?? '').length > 0}
            {...(props.disabled !== undefined && { disabled: props.disabled })}
            autoComplete="new-password"
            data-testid="user-form-repeatPassword"
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

export function FlagField(props: {
  label: string;
  checked: boolean;
  disabled?: boolean | undefined;
  testId: string;
  onChange(v: boolean): void;
}) {
  return (
    <Checkbox
      label={props.label}
      checked={props.checked}
      {...(props.disabled !== undefined && { disabled: props.disabled })}
      onChange={(e) => props.onChange(e.currentTarget.checked)}
      data-testid={props.testId}
    />
  );
}
