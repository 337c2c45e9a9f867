import type { NewRequestView } from '@dossier/core';
import { Container, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { definePage } from '../../view/page';
import { DraftsList } from './DraftsList';
import { Wizard } from './Wizard';

/** An id for a new draft; the server takes the browser's ids (PUT /drafts/{draftId}). */
function newDraftId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * /requests/new and /requests/new/{draftId}: with no draft open, the saved drafts and the Sender
 * step of a new draft; with one open, the wizard at its step.
 */
export const NewRequestPage = definePage<NewRequestView>(({ view }) => {
  const [freshId, setFreshId] = useState(newDraftId);
  const draftId = view.draft?.draftId ?? freshId;
  return (
    <Container size="lg" data-testid="new-request-page">
      <Stack>
        <Title order={2} data-testid="page-title">
          {view.title}
        </Title>
        {!view.draft && <DraftsList drafts={view.drafts} />}
        <Wizard
          key={`${draftId}:${view.step}`}
          view={view}
          draftId={draftId}
          // Discarded on the first step: an empty form under a new id.
          onDiscarded={() => setFreshId(newDraftId())}
        />
      </Stack>
    </Container>
  );
});
