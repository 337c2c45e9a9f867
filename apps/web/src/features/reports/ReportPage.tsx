import { type ReportAnswer, type ReportView, reportRoutesOf } from '@dossier/core';
import { Alert, Container, Loader, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { definePage } from '../../view/page';
import {
  exportHref,
  type Filters,
  fieldErrorsByFilter,
  filtersFromSearch,
  queryOf,
  rangeAtChangedDate,
  writeAddress,
} from './address';
import { ReportForm } from './ReportForm';
import { ReportTable } from './ReportTable';

const ReportChart = lazy(() => import('./ReportChart'));

/**
 * The seven report pages: the Run Report form bound to the address, the summary
 * table with totals, the chart where the answer has one, and the CSV export of the last run. Field
 * errors of the filters show beside their fields; other errors go to the view's error area. A
 * report opens on the last 12 months (or the address's filters) and runs at once.
 */
export const ReportPage = definePage<ReportView>(({ view }) => (
  // A new report is a new form: no filters or answer carried over from the previous one.
  <ReportScreen key={view.path} view={view} />
));

function ReportScreen({ view }: { view: ReportView }) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const [filters, setFilters] = useState<Filters>(() =>
    filtersFromSearch(window.location.search, view.filters, view.defaultPeriod),
  );
  // Date fields whose text is not a date: their value is still the last valid one, so running
  // would show figures for a filter no longer on screen.
  const [unreadable, setUnreadable] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<Partial<Filters>>({});
  // The date last changed: a range the server refuses (its message stands at To) is marked on the
  // date the person changed, so a bad From leaves a valid To alone.
  const lastDate = useRef<'from' | 'to'>('to');
  const [answer, setAnswer] = useState<ReportAnswer>();
  const [ranQuery, setRanQuery] = useState<URLSearchParams>();
  const [running, setRunning] = useState(false);
  const started = useRef(false);

  async function run(current = filters) {
    if (unreadable.size > 0) {
      setAnswer(undefined);
      setRanQuery(undefined);
      return;
    }
    setRunning(true);
    setErrors({});
    const query = queryOf(current, view.filters);
    try {
      const result = await api.call(reportRoutesOf(view.path).filter, { query: Object.fromEntries(query) });
      setAnswer(result);
      setRanQuery(query);
      writeAddress(query);
    } catch (error) {
      setAnswer(undefined);
      setRanQuery(undefined);
      if (error instanceof ApiError && error.status === 400 && error.fields)
        setErrors(rangeAtChangedDate(fieldErrorsByFilter(error.fields), current, lastDate.current, t));
      else store.report(error);
    } finally {
      setRunning(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on opening the page
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, []);

  return (
    <Container size="xl" data-testid="report-page" data-report={view.report}>
      <Title order={2} mb="md">
        {view.title}
      </Title>
      <ReportForm
        view={view}
        filters={filters}
        errors={errors}
        running={running}
        exportHref={ranQuery && exportHref(view.path, ranQuery)}
        onChange={(next) => {
          if (next.from !== filters.from) lastDate.current = 'from';
          else if (next.to !== filters.to) lastDate.current = 'to';
          setFilters(next);
        }}
        onReadableChange={(name, readable) =>
          setUnreadable((current) => {
            if (current.has(name) === !readable) return current;
            const next = new Set(current);
            if (readable) next.delete(name);
            else next.add(name);
            return next;
          })
        }
        onRun={() => void run()}
      />
      {answer && answer.rows.length === 0 && (
        <Alert mt="md" color="gray" data-testid="report-empty">
          {t('reports.empty')}
        </Alert>
      )}
      {answer && answer.rows.length > 0 && (
        <div style={{ marginTop: 'var(--mantine-spacing-md)' }} data-testid="report-result">
          <ReportTable view={view} answer={answer} />
          {answer.chart && (
            <Suspense fallback={<Loader size="sm" mt="md" data-testid="report-chart-loading" />}>
              <ReportChart chart={answer.chart} />
            </Suspense>
          )}
        </div>
      )}
    </Container>
  );
}
