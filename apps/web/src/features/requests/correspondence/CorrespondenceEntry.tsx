import {
  acceptMessageSenderRoute,
  type CorrespondenceAddress,
  type CorrespondenceItem,
  editCorrespondenceRoute,
  type FileRef,
  pathOfRoute,
  queryStringOf,
  type RichTextDoc,
  richTextFromParagraphs,
  shareMessageWithSenderRoute,
  stopSharingMessageWithSenderRoute,
} from '@dossier/core';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { FileListField } from '../../../ui/files/FileField';
import { RichText } from '../../../ui/RichText';
import { RichTextEditor } from '../../../ui/RichTextEditor';
import { formatDateTime } from '../requestApi';

// One correspondence entry: read view, or edit mode (content and attachments) when the server says
// isEditable; Save or Cancel leaves edit mode (correspondence entry).

const KIND_COLORS = { note: 'gray', issuedRequest: 'blue', message: 'grape' } as const;
const DELIVERY_COLORS: Record<string, string> = {
  queued: 'yellow',
  sent: 'teal',
  failed: 'red',
  printReady: 'blue',
};

const hasText = (doc: RichTextDoc) => JSON.stringify(doc).includes('"text":"');

function describeAddress(address: CorrespondenceAddress | null | undefined): string | undefined {
  if (!address) return undefined;
  const where = address.email || address.phone || address.postalAddress;
  if (address.displayName && where) return `${address.displayName} <${where}>`;
  return address.displayName || where || undefined;
}

function Body({ body }: { body: CorrespondenceItem['body'] }) {
  if (body.type === 'richText') return <RichText doc={body.content} data-testid="correspondence-body" />;
  // Received mail arrives as its text (the server takes it out of the HTML): never parsed here,
  // because the browser's parser would compile a stranger's event handlers.
  const text = String(body.content ?? '');
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="correspondence-body">
      {text}
    </Text>
  );
}

function Attachments({ item }: { item: CorrespondenceItem }) {
  const { t } = useTranslation();
  if (item.attachments.length === 0) return null;
  return (
    <Group gap="xs" data-testid="correspondence-attachments">
      <Text size="xs" c="dimmed">
        {t('correspondence.attachments')}:
      </Text>
      {item.attachments.map((file) =>
        file.blocked ? (
          // Not a link: a blocked file is never served, so nothing suggests it could be opened.
          <Text key={file.key} size="sm" c="red.8" data-testid="correspondence-attachment-blocked">
            <Text span td="line-through" c="dimmed">
              {file.name}
            </Text>{' '}
            (
            {t('correspondence.blockedWhy', {
              reason: file.blockedReason ?? t('correspondence.blockedDefault'),
            })}
            )
          </Text>
        ) : (
          <Anchor
            key={file.key}
            href={`/files/${file.key}`}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            data-testid="correspondence-attachment"
          >
            {file.name}
          </Anchor>
        ),
      )}
    </Group>
  );
}

export function CorrespondenceEntry(props: {
  requestNumber: string;
  item: CorrespondenceItem;
  canEdit: boolean;
  editing: boolean;
  onEdit(): void;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const { api, view } = useServices();
  const { item } = props;
  const [content, setContent] = useState<RichTextDoc>();
  const [files, setFiles] = useState<FileRef[]>([]);
  const [saving, setSaving] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const from = describeAddress(item.from) ?? item.createdByDisplayName ?? t('correspondence.unknownSender');
  const to = describeAddress(item.to);

  function startEdit() {
    // A plain text entry (a closing notice) is edited as rich text paragraphs.
    setContent(
      item.body.type === 'richText'
        ? (item.body.content as RichTextDoc)
        : richTextFromParagraphs(...String(item.body.content ?? '').split(/\n{2,}/)),
    );
    setFiles(item.attachments.map((a) => ({ key: a.key, name: a.name })));
    setFields({});
    props.onEdit();
  }

  // Accept Sender, Share with Sender and Stop Sharing with Sender answer the entry; the page reloads.
  async function callEntryRoute(route: typeof acceptMessageSenderRoute | typeof shareMessageWithSenderRoute) {
    setSaving(true);
    try {
      await api.call(route, {
        params: { requestNumber: props.requestNumber, messageId: item.messageId },
      });
      props.onSaved();
    } catch (error) {
      view.report(error);
    } finally {
      setSaving(false);
    }
  }

  // The edit answers the request view as it now is (?answer=request), which the view store puts in
  // place: no reload follows. A refusal goes to the view's banner, its field errors to the form.
  async function save() {
    setSaving(true);
    setFields({});
    const path = pathOfRoute(editCorrespondenceRoute.path, {
      requestNumber: props.requestNumber,
      messageId: item.messageId,
    });
    const result = await view.commit(`${path}${queryStringOf({ answer: 'request' })}`, {
      content,
      attachments: files.map((f) => ({ key: f.key, name: f.name })),
    });
    setSaving(false);
    if (result.ok) props.onClose();
    else if (result.error instanceof ApiError && result.error.fields) setFields(result.error.fields);
  }

  return (
    <Paper
      withBorder
      p="sm"
      data-testid="correspondence-item"
      style={item.isUrgentNote ? { borderLeft: '4px solid var(--mantine-color-red-6)' } : undefined}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Badge color={KIND_COLORS[item.kind]} variant="light" data-testid="correspondence-kind">
              {t(`correspondence.kind.${item.kind}`)}
              {item.issueRequestMethod ? ` · ${t(`correspondence.method.${item.issueRequestMethod}`)}` : ''}
            </Badge>
            {item.isUrgentNote && (
              <Badge color="red" data-testid="correspondence-urgent">
                {t('correspondence.urgent')}
              </Badge>
            )}
            {item.viaRecipientPage && (
              <Badge color="indigo" variant="light" data-testid="correspondence-via-recipient-page">
                {t('correspondence.viaRecipientPage')}
              </Badge>
            )}
            {item.unverifiedSender && (
              <Badge color="orange" data-testid="correspondence-unverified">
                {t('correspondence.unverifiedSender')}
              </Badge>
            )}
            {item.messageDeliveryStatus && (
              <Badge
                color={DELIVERY_COLORS[item.messageDeliveryStatus] ?? 'gray'}
                variant="outline"
                data-testid="correspondence-delivery"
              >
                {t(`correspondence.deliveryStatus.${item.messageDeliveryStatus}`, {
                  defaultValue: item.messageDeliveryStatus,
                })}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.createdAt)} · {t('correspondence.from')}: {from}
            {to ? ` · ${t('correspondence.to')}: ${to}` : ''}
          </Text>
          {item.kind === 'message' && item.canShareWithSender !== undefined && (
            <Text size="xs" c="dimmed" data-testid="correspondence-sharing">
              {item.sharedWithSender
                ? t('correspondence.sharedWithSender', {
                    at: formatDateTime(item.sharedWithSender.at),
                    name: item.sharedWithSender.byDisplayName ?? '',
                  })
                : t('correspondence.notShared')}
            </Text>
          )}
          {item.updatedAt && (
            <Text size="xs" c="dimmed" data-testid="correspondence-edited">
              {t('correspondence.edited', {
                at: formatDateTime(item.updatedAt),
                name: item.updatedByDisplayName ?? '',
              })}
            </Text>
          )}
        </Stack>
        {item.unverifiedSender && item.canAcceptSender && (
          <Button
            size="xs"
            variant="light"
            color="orange"
            loading={saving}
            onClick={() => void callEntryRoute(acceptMessageSenderRoute)}
            title={t('correspondence.acceptSenderHint')}
            data-testid="correspondence-accept-sender"
          >
            {t('correspondence.acceptSender')}
          </Button>
        )}
        {item.canShareWithSender && (
          <Button
            size="xs"
            variant="light"
            loading={saving}
            onClick={() => void callEntryRoute(shareMessageWithSenderRoute)}
            title={t('correspondence.shareWithSenderHint')}
            data-testid="correspondence-share-with-sender"
          >
            {t('correspondence.shareWithSender')}
          </Button>
        )}
        {item.canStopSharingWithSender && (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={saving}
            onClick={() => void callEntryRoute(stopSharingMessageWithSenderRoute)}
            title={t('correspondence.stopSharingWithSenderHint')}
            data-testid="correspondence-stop-sharing-with-sender"
          >
            {t('correspondence.stopSharingWithSender')}
          </Button>
        )}
        {item.isEditable && !props.editing && (
          <Button
            size="xs"
            variant="light"
            disabled={!props.canEdit}
            onClick={startEdit}
            data-testid="correspondence-edit"
          >
            {t('correspondence.edit')}
          </Button>
        )}
      </Group>
      {item.subject && (
        <Text fw={600} size="sm" mt="xs" data-testid="correspondence-subject">
          {item.subject}
        </Text>
      )}
      {props.editing ? (
        <Stack gap="xs" mt="xs">
          <RichTextEditor value={content} onChange={setContent} data-testid="correspondence-content" />
          {fields.content && (
            <Text c="red" size="xs">
              {fields.content}
            </Text>
          )}
          <FileListField
            label={t('correspondence.attachments')}
            value={files}
            onChange={setFiles}
            error={Object.entries(fields).find(([k]) => k.startsWith('attachments'))?.[1]}
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={props.onClose}
              disabled={saving}
              data-testid="correspondence-cancel"
            >
              {t('correspondence.cancel')}
            </Button>
            <Button
              onClick={save}
              loading={saving}
              disabled={!content || !hasText(content)}
              data-testid="correspondence-save"
            >
              {t('correspondence.save')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="xs" mt="xs">
          {item.withheld ? (
            <Text size="sm" c="dimmed" fs="italic" data-testid="correspondence-withheld">
              {t('correspondence.withheld')}
            </Text>
          ) : (
            <Body body={item.body} />
          )}
          <Attachments item={item} />
        </Stack>
      )}
    </Paper>
  );
}
