import {
  defaultIssueRequestMethod,
  emptyRichText,
  ISSUE_REQUEST_METHODS,
  type IssueRequestMethod,
  type IssueRequestTemplate,
  issueRequestAddress,
  issueRequestTemplateRoute,
  issueRequestTemplatesRoute,
  type RichTextDoc,
} from '@dossier/core';
import { Alert, Checkbox, Select, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';
import { RichTextEditor } from '../../../ui/RichTextEditor';
import { PanelFrame } from '../actions/PanelFrame';
import type { ActionPanelProps } from '../actions/panels';
import { useRequestCommit } from '../requestApi';
import { ConfirmSwitch } from './ConfirmSwitch';

// Issue request: method (the preferred one the recipient allows), template (loads its
// subject and body, rendered with the request's data by the server), subject and message. Switching
// template after the message was edited asks first. Send stays disabled until everything is there.

const hasText = (doc: RichTextDoc) => JSON.stringify(doc).includes('"text":"');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Issue Request Again (after a bounce or a recipient change): the same panel, a new letter. */
export function IssueRequestAgainPanel(props: ActionPanelProps) {
  return <IssueRequestPanel {...props} action="issueRequestAgain" />;
}

export function IssueRequestPanel({
  view,
  onDone,
  onCancel,
  action = 'issueRequest',
}: ActionPanelProps & { action?: 'issueRequest' | 'issueRequestAgain' }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const commit = useRequestCommit();
  const n = view.request.requestNumber;
  const recipient = view.request.recipient;

  const [method, setMethod] = useState<IssueRequestMethod>(() => defaultIssueRequestMethod(recipient));
  const [templates, setTemplates] = useState<IssueRequestTemplate[]>([]);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [pendingTemplate, setPendingTemplate] = useState<string | null | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [templateError, setTemplateError] = useState<string>();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState<RichTextDoc>(emptyRichText());
  const differences = Object.keys(recipient.directoryDifferences ?? {});
  const [confirmed, setConfirmed] = useState(false);
  // What the chosen template put there, to tell whether the user has changed it since.
  const loaded = useRef<{ subject: string; body: RichTextDoc }>({ subject: '', body: emptyRichText() });

  async function loadTemplate(id: string | null) {
    setTemplateId(id);
    setTemplateError(undefined);
    const keepSubject = subject.trim() !== '' && subject !== loaded.current.subject;
    if (!id) {
      loaded.current = { subject: keepSubject ? loaded.current.subject : '', body: emptyRichText() };
      setBody(emptyRichText());
      return;
    }
    setLoading(true);
    try {
      const rendered = await api.call(issueRequestTemplateRoute, {
        params: { requestNumber: n, templateId: id },
      });
      loaded.current = rendered;
      setBody(rendered.body);
      if (!keepSubject) setSubject(rendered.subject);
    } catch (error) {
      // The spec: on failure the error is shown and the message emptied.
      setTemplateError(error instanceof ApiError ? error.message : String(error));
      loaded.current = { subject: loaded.current.subject, body: emptyRichText() };
      setBody(emptyRichText());
    } finally {
      setLoading(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per request
  useEffect(() => {
    let live = true;
    api
      .call(issueRequestTemplatesRoute, { params: { requestNumber: n } })
      .then(({ templates: list }) => {
        if (!live) return;
        setTemplates(list);
        const preferred = list.find((x) => x.isDefault) ?? (list.length === 1 ? list[0] : undefined);
        if (preferred) void loadTemplate(preferred.templateId);
      })
      .catch((error) => live && setTemplateError(error instanceof ApiError ? error.message : String(error)));
    return () => {
      live = false;
    };
  }, [n]);

  function chooseTemplate(id: string | null) {
    if (id === templateId) return;
    if (hasText(body) && !same(body, loaded.current.body)) setPendingTemplate(id);
    else void loadTemplate(id);
  }

  const address = issueRequestAddress(method, recipient);
  // What still stops Send, said beside it: the first value missing, in the order of the form.
  const blocked = !address
    ? t(`issueRequest.missingAddress.${method}`)
    : subject.trim() === ''
      ? t('issueRequest.blocked.subject')
      : !hasText(body)
        ? t('issueRequest.blocked.body')
        : differences.length > 0 && !confirmed
          ? t('issueRequest.blocked.confirmRecipient')
          : undefined;
  const canSend = blocked === undefined && !loading && !commit.busy;

  async function send() {
    const ok = await commit.runAction(n, action, {
      issueRequestMethod: method,
      subject: subject.trim(),
      body,
      templateId,
      ...(differences.length > 0 ? { confirmRecipientDetails: confirmed } : {}),
    });
    if (ok) onDone();
  }

  const hint =
    method === 'email' ? 'sendsTo' : method === 'faxNumber' ? 'faxGateway' : ('postalHint' as const);
  return (
    <PanelFrame
      action="issueRequest"
      title={t('issueRequest.title')}
      submitLabel={t('issueRequest.send')}
      busy={commit.busy}
      canSubmit={canSend}
      blocked={blocked}
      onSubmit={send}
      onCancel={onCancel}
    >
      <Select
        label={t('issueRequest.method')}
        // Fax is offered only to a recipient with a fax number (never to its phone).
        data={ISSUE_REQUEST_METHODS.filter(
          (m) => m !== 'faxNumber' || method === m || issueRequestAddress(m, recipient),
        ).map((m) => ({ value: m, label: t(`issueRequest.methods.${m}`) }))}
        value={method}
        onChange={(value) => value && setMethod(value as IssueRequestMethod)}
        allowDeselect={false}
        required
        error={
          commit.fields.issueRequestMethod ??
          (address ? undefined : t(`issueRequest.missingAddress.${method}`))
        }
        description={address ? t(`issueRequest.${hint}`, { address }) : undefined}
        data-testid="issueRequest-method"
      />
      <Select
        label={t('issueRequest.template')}
        placeholder={t('issueRequest.noTemplate')}
        data={templates.map((x) => ({ value: x.templateId, label: x.name }))}
        value={templateId}
        onChange={chooseTemplate}
        clearable
        disabled={loading}
        description={loading ? t('issueRequest.templateLoading') : undefined}
        data-testid="issueRequest-template"
      />
      {templateError && (
        <Alert color="red" data-testid="issueRequest-template-error">
          {templateError}
        </Alert>
      )}
      <TextInput
        label={t('issueRequest.subject')}
        value={subject}
        onChange={(ev) => setSubject(ev.currentTarget.value)}
        required
        maxLength={500}
        error={commit.fields.subject}
        data-testid="issueRequest-subject"
      />
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('issueRequest.body')}{' '}
          <Text span c="red">
            *
          </Text>
        </Text>
        <RichTextEditor value={body} onChange={setBody} minHeight={180} data-testid="issueRequest-body" />
        {commit.fields.body && (
          <Text c="red" size="xs">
            {commit.fields.body}
          </Text>
        )}
      </div>
      {method !== 'postal' && (
        <Text size="xs" c="dimmed">
          {t('issueRequest.attachmentsHint')}
        </Text>
      )}
      {differences.length > 0 && (
        <Checkbox
          label={t('issueRequest.confirmRecipient', {
            fields: differences.map((f) => t(`request.recipient.${f}`)).join(', '),
          })}
          checked={confirmed}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
          error={commit.fields.confirmRecipientDetails}
          data-testid="issueRequest-confirmRecipient"
        />
      )}
      <ConfirmSwitch
        opened={pendingTemplate !== undefined}
        onConfirm={() => {
          const id = pendingTemplate ?? null;
          setPendingTemplate(undefined);
          void loadTemplate(id);
        }}
        onCancel={() => setPendingTemplate(undefined)}
      />
    </PanelFrame>
  );
}
