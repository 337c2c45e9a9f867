import type { View } from '@dossier/core';
import { Container, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { definePage } from '../../view/page';
import { FindRequestsForm } from './FindRequestsForm';
import { RequestHits } from './RequestHits';
import {
  EMPTY_TERMS,
  type RequestSearchAnswer,
  type Terms,
  termsFromAddress,
  writeAddress,
} from './searchTerms';

export interface FindRequestsView extends View {
  $type: 'findRequests';
  scopes: { path: string; name: string }[];
}

const PAGE_SIZE = 20;

/**
 * /requests/find (spec 2): the search form bound to the address (the terms are written to it and
 * `search=1` runs the search again when the page is opened from that address), the hits with their
 * hover previews, and paging with the spec's summary.
 */
export const FindRequestsPage = definePage<FindRequestsView>(({ view }) => {
  const { api, view: store } = useServices();
  const [terms, setTerms] = useState<Terms>(() => termsFromAddress());
  const [result, setResult] = useState<RequestSearchAnswer>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [searching, setSearching] = useState(false);
  const started = useRef(false);

  async function run(offset: number, current = terms) {
    setSearching(true);
    setFieldErrors({});
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(current)) if (v.trim()) query.set(k, v.trim());
    if (offset > 0) query.set('pageOffset', String(offset));
    writeAddress(query);
    query.set('pageSize', String(PAGE_SIZE));
    try {
      setResult(await api.get<RequestSearchAnswer>(`/requests/search?${query}`));
    } catch (error) {
      setResult(undefined);
      if (error instanceof ApiError && error.status === 400 && error.fields) setFieldErrors(error.fields);
      else store.report(error);
    } finally {
      setSearching(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on opening the page
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const address = new URLSearchParams(window.location.search);
    if (address.get('search') === '1') void run(Number(address.get('pageOffset')) || 0);
  }, []);

  return (
    <Container size="lg" data-testid="find-requests-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <FindRequestsForm
        terms={terms}
        scopes={view.scopes}
        errors={fieldErrors}
        searching={searching}
        onChange={setTerms}
        onSearch={() => void run(0)}
        onClear={() => {
          setTerms(EMPTY_TERMS);
          setResult(undefined);
          setFieldErrors({});
          window.history.replaceState(window.history.state, '', window.location.pathname);
        }}
      />
      {result && <RequestHits result={result} pageSize={PAGE_SIZE} onPage={(offset) => void run(offset)} />}
    </Container>
  );
});
