import { type AdminUsersView, searchUsersRoute, type UserSummary } from '@dossier/core';
import { Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SearchPageHeader } from '../../ui/forms/SearchPageHeader';
import { SearchPanel } from '../../ui/forms/SearchPanel';
import { definePage } from '../../view/page';
import { WaitingRoleClaims } from './PendingRoleClaims';

export const AdminUsersPage = definePage<AdminUsersView>(({ view }) => {
  const { t } = useTranslation();
  const field = (name: string) => ({ name, label: t(`admin.users.search.${name}`) });
  return (
    <Container size="lg" data-testid="admin-users-page">
      <SearchPageHeader title={view.title} createPath="/admin/users/edit" canCreateNew={view.canCreateNew} />
      <WaitingRoleClaims claims={view.pendingRoleClaims ?? []} />
      <SearchPanel<UserSummary>
        path={searchUsersRoute.path}
        testId="users-search"
        fields={['name', 'phone', 'email', 'scope', 'externalUserReference'].map(field)}
        columns={[
          { key: 'name', label: t('accounts.fields.name') },
          { key: 'userId', label: t('accounts.fields.userId') },
          { key: 'email', label: t('accounts.fields.email') },
          { key: 'phone', label: t('accounts.fields.phone') },
          { key: 'scope', label: t('accounts.fields.scope') },
          { key: 'disabled', label: t('admin.disabled'), render: (u) => (u.disabled ? t('admin.yes') : '') },
        ]}
        editPath={(id) => `/admin/users/edit/${encodeURIComponent(id)}`}
      />
    </Container>
  );
});
