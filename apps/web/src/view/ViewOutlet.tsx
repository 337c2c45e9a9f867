import { PRODUCT_NAME } from '@dossier/core';
import { Loader, Progress } from '@mantine/core';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useServices } from '../shell/ServicesContext';
import { useStore } from './createStore';
import { usePageOf } from './pagesContext';

/** Loads the view of every new location (the first, embedded one is not fetched again). */
export function useViewLocationSync(): void {
  const { view } = useServices();
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (path !== view.get().path) void view.load(path);
  }, [path, view]);
}

/** Renders the page registered for the current view's $type and keeps the document title. */
export function ViewOutlet() {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const view = useStore(store, (s) => s.view);
  const loading = useStore(store, (s) => s.loading);
  const pageOf = usePageOf();
  useEffect(() => {
    document.title = typeof view.title === 'string' && view.title.length > 0 ? view.title : PRODUCT_NAME;
  }, [view]);
  const Page = pageOf(view.$type);
  return (
    <>
      {loading && (
        <Progress.Root
          size="xs"
          pos="fixed"
          top={0}
          left={0}
          right={0}
          style={{ zIndex: 1000 }}
          data-testid="view-loading"
        >
          {/* The section carries the progressbar role, so it carries the name screen readers read. */}
          <Progress.Section value={100} animated aria-label={t('shell.loadingPage')} />
        </Progress.Root>
      )}
      <div data-testid="view" data-view-type={view.$type}>
        <Suspense fallback={<Loader m="xl" aria-label={t('shell.loadingPage')} data-testid="page-loading" />}>
          <Page view={view} />
        </Suspense>
      </div>
    </>
  );
}
