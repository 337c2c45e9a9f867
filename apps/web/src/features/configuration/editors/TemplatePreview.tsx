import { type RouteAnswer, templatePreviewRoute } from '@dossier/core';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../shell/ServicesContext';
import { RichText } from '../../../ui/RichText';

type Rendered = RouteAnswer<typeof templatePreviewRoute>;

/**
 * The template on the screen (saved or not) as it reads for a real request: the newest request of
 * the configuration's scope that the user may see, rendered by the server with the letters' data.
 */
export function TemplatePreview(props: {
  configurationId: string;
  subject?: string | undefined;
  body: unknown;
}) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const [busy, setBusy] = useState(false);
  const [rendered, setRendered] = useState<Rendered | undefined>(undefined);

  async function show() {
    setBusy(true);
    try {
      setRendered(
        await api.call(templatePreviewRoute, {
          params: { c: props.configurationId },
          body: { subject: props.subject, body: props.body },
        }),
      );
    } catch (error) {
      view.report(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Button
        variant="light"
        size="xs"
        w="fit-content"
        loading={busy}
        onClick={() => void show()}
        data-testid="template-preview-open"
      >
        {t('configuration.template.preview')}
      </Button>
      {rendered && (
        <Paper withBorder p="sm" data-testid="template-preview">
          {rendered.requestNumber === null ? (
            <Text size="sm" c="dimmed">
              {t('configuration.template.previewNoRequest')}
            </Text>
          ) : (
            <Stack gap={4}>
              <Text size="xs" c="dimmed" data-testid="template-preview-request">
                {t('configuration.template.previewOf', { requestNumber: rendered.requestNumber })}
              </Text>
              {rendered.subject && (
                <Text fw={600} data-testid="template-preview-subject">
                  {rendered.subject}
                </Text>
              )}
              <RichText doc={rendered.body} data-testid="template-preview-body" />
            </Stack>
          )}
        </Paper>
      )}
    </Stack>
  );
}
