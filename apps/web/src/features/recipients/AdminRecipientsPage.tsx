import { type AdminRecipientsView, type RecipientSummary, searchRecipientsRoute } from '@dossier/core';
import { Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SearchPageHeader } from '../../ui/forms/SearchPageHeader';
import { SearchPanel } from '../../ui/forms/SearchPanel';
import { definePage } from '../../view/page';

export const AdminRecipientsPage = definePage<AdminRecipientsView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="lg" data-testid="admin-recipients-page">
      <SearchPageHeader
        title={view.title}
        createPath="/admin/recipients/edit"
        canCreateNew={view.canCreateNew}
      />
      <SearchPanel<RecipientSummary>
        path={searchRecipientsRoute.path}
        testId="recipients-search"
        fields={['name', 'phone', 'address', 'email'].map((name) => ({
          name,
          label: t(`admin.recipients.fields.${name}`),
        }))}
        columns={[
          { key: 'name', label: t('admin.recipients.fields.name') },
          { key: 'phone', label: t('admin.recipients.fields.phone') },
          { key: 'email', label: t('admin.recipients.fields.email') },
          { key: 'address', label: t('admin.recipients.fields.address') },
          { key: 'disabled', label: t('admin.disabled'), render: (r) => (r.disabled ? t('admin.yes') : '') },
        ]}
        editPath={(id) => `/admin/recipients/edit/${id}`}
      />
    </Container>
  );
});
