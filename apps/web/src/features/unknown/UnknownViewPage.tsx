import { Alert, Code, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../view/page';

/** A view whose $type has no page yet. */
export function UnknownViewPage({ view }: PageProps) {
  const { t } = useTranslation();
  return (
    <Container size="md" data-testid="unknown-view">
      <Alert color="yellow" title={t('shell.unknownView')}>
        <Code data-testid="unknown-view-type">{String(view.$type)}</Code>
      </Alert>
    </Container>
  );
}
