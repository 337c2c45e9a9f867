import { type FindRequestsView, requestSearchRoute } from '@dossier/core';
import { Container, Title } from '@mantine/core';
import { useState } from 'react';
import { termsFromAddress, useSearch } from '../../ui/forms/useSearch';
import { definePage } from '../../view/page';
import { FindRequestsForm } from './FindRequestsForm';
import { RequestHits } from './RequestHits';
import { EMPTY_TERMS, TERM_NAMES, type Terms } from './searchTerms';

const PAGE_SIZE = 20;

/**
 * /requests/find: the search form bound to the address (the terms are written to it and
 * `search=1` runs the search again when the page is opened from that address), the hits with their
 * hover previews, and paging with the spec's summary.
 */
export const FindRequestsPage = definePage<FindRequestsView>(({ view }) => {
  const [terms, setTerms] = useState<Terms>(() => termsFromAddress(TERM_NAMES));
  const search = useSearch({
    route: requestSearchRoute,
    pageSize: PAGE_SIZE,
    initialTerms: terms,
    bindAddress: true,
  });

  return (
    <Container size="lg" data-testid="find-requests-page">
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <FindRequestsForm
        terms={terms}
        scopes={view.scopes}
        errors={search.errors}
        searching={search.searching}
        onChange={setTerms}
        onSearch={() => void search.run(0, terms)}
        onClear={() => {
          setTerms(EMPTY_TERMS);
          search.clear();
        }}
      />
      {search.result && (
        <RequestHits
          result={search.result}
          pageSize={PAGE_SIZE}
          onPage={(offset) => void search.run(offset, terms)}
        />
      )}
    </Container>
  );
});
