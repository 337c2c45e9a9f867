import { type AdminPayeesView, type PayeeSummary, searchPayeesRoute } from '@dossier/core';
import { Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SearchPageHeader } from '../../ui/forms/SearchPageHeader';
import { SearchPanel } from '../../ui/forms/SearchPanel';
import { definePage } from '../../view/page';

export const AdminPayeesPage = definePage<AdminPayeesView>(({ view }) => {
  const { t } = useTranslation();
  const label = (name: string) => t(`admin.payees.fields.${name}`);
  return (
    <Container size="lg" data-testid="admin-payees-page">
      <SearchPageHeader title={view.title} createPath="/admin/payees/edit" canCreateNew={view.canCreateNew} />
      <SearchPanel<PayeeSummary>
        path={searchPayeesRoute.path}
        testId="payees-search"
        fields={['name', 'referenceNumber', 'email', 'bankAccount'].map((name) => ({
          name,
          label: label(name),
        }))}
        columns={[
          { key: 'name', label: label('name') },
          { key: 'referenceNumber', label: label('referenceNumber') },
          { key: 'email', label: label('email') },
          { key: 'bankAccount', label: label('bankAccount') },
          { key: 'currency', label: label('currency') },
          { key: 'disabled', label: t('admin.disabled'), render: (p) => (p.disabled ? t('admin.yes') : '') },
        ]}
        editPath={(id) => `/admin/payees/edit/${id}`}
      />
    </Container>
  );
});
