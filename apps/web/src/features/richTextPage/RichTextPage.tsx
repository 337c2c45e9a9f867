import type { RichTextPageView } from '@dossier/core';
import { Container, Title, Typography } from '@mantine/core';
import { RichText } from '../../ui/RichText';
import { definePage } from '../../view/page';

/** Pages such as /contact and /help whose body is rich text supplied by the server. */
export const RichTextPage = definePage<RichTextPageView>(({ view }) => (
  <Container size="md" data-testid="rich-text-page">
    {view.title && (
      <Title order={2} mb="md">
        {view.title}
      </Title>
    )}
    <Typography>
      <RichText doc={view.body} data-testid="rich-text-body" />
    </Typography>
  </Container>
));
