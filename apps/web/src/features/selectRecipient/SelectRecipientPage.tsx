import {
  type RecipientHit,
  type RequestRecipient,
  type SelectRecipientView,
  saveRecipientRoute,
} from '@dossier/core';
import { Alert, Anchor, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { definePage } from '../../view/page';
import { RecipientForm, RecipientStateBadge } from './RecipientForm';
import { RecipientSearch } from './RecipientSearch';
import { selectRecipientPath } from './types';

/**
 * /requests/{n}/select-recipient: search the directory, pick an entry or enter a new one,
 * edit it, and save it into the request as its recipient.
 */
export const SelectRecipientPage = definePage<SelectRecipientView>(({ view }) => {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<RecipientHit>();
  const [editing, setEditing] = useState<RequestRecipient | undefined>(() =>
    view.enterNew ? view.newRecipient : undefined,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const requestPath = `/requests/${view.requestNumber}`;

  const pick = (hit: RecipientHit) => {
    setPicked(hit);
    setErrors({});
    const { address: _address, disabled: _disabled, ...recipient } = hit;
    setEditing({ ...recipient, contact: null });
  };

  const cancel = () => {
    setEditing(undefined);
    setPicked(undefined);
    setErrors({});
    if (view.enterNew)
      void navigate(selectRecipientPath(view.requestNumber, view.search.terms), { replace: true });
  };

  async function save() {
    if (!editing) return;
    setSaving(true);
    setErrors({});
    try {
      await api.call(saveRecipientRoute, {
        params: { requestNumber: view.requestNumber },
        body: { version: view.version, recipient: editing },
      });
      await navigate(requestPath);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      else store.report(error);
    } finally {
      setSaving(false);
    }
  }

  const current = view.current.recipient;
  return (
    <Container size="lg" data-testid="select-recipient-page">
      <Group justify="space-between" mb="md">
        <Title order={2}>{view.title}</Title>
        <Anchor component={Link} to={requestPath} data-testid="back-to-request">
          {t('selectRecipient.backToRequest')}
        </Anchor>
      </Group>
      <Stack>
        <Paper withBorder p="md" data-testid="current-recipient">
          <Group justify="space-between">
            <Text fw={600}>{t('selectRecipient.current')}</Text>
            <RecipientStateBadge state={view.current.state} />
          </Group>
          <Text data-testid="current-recipient-name">{current.name}</Text>
          <Text size="sm" c="dimmed">
            {[current.phone, current.email, current.postalAddress ?? current.streetAddress]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Paper>
        {view.isClosed && <Alert color="yellow">{t('selectRecipient.closed')}</Alert>}
        {editing ? (
          <RecipientForm
            value={editing}
            picked={picked}
            errors={errors}
            saving={saving}
            onChange={setEditing}
            onSave={() => void save()}
            onCancel={cancel}
          />
        ) : (
          <RecipientSearch view={view} disabled={view.isClosed} onPick={pick} />
        )}
      </Stack>
    </Container>
  );
});
