import { Button, Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The title of an admin search page with its Create New button (enabled by canCreateNew). */
export function SearchPageHeader(props: {
  title: string | undefined;
  createPath: string;
  canCreateNew: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mb="md">
      <Title order={2}>{props.title}</Title>
      <Button component={Link} to={props.createPath} disabled={!props.canCreateNew} data-testid="create-new">
        {t('admin.createNew')}
      </Button>
    </Group>
  );
}
