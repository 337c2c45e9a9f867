import type { InvalidUrlView } from '@dossier/core';
import { Code, Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { definePage } from '../../view/page';

/** An unmatched URL shows the text Invalid URL together with the path. */
export const InvalidUrlPage = definePage<InvalidUrlView>(({ view }) => {
  const { t } = useTranslation();
  return (
    <Container size="md" data-testid="invalid-url">
      <Stack gap="xs">
        <Title order={2}>{t('shell.invalidUrl')}</Title>
        <Code data-testid="invalid-url-path">{view.path ?? window.location.pathname}</Code>
      </Stack>
    </Container>
  );
});
