import { describe, expect, it } from 'vitest';
import {
  exportHref,
  fieldErrorsByFilter,
  filtersFromSearch,
  queryOf,
  rangeAtChangedDate,
} from '../src/features/reports/address';

// The report form in the address: what a shared link carries, when it runs again, and the export.

describe('report filters in the address', () => {
  it('reads the filters the report offers and defaults the date basis', () => {
    const search = '?filter.from=2026-06-01&filter.to=2026-06-30&filter.currency=AUD&run=1';
    const active = filtersFromSearch(search, ['date', 'from', 'to', 'scope', 'taskType']);
    expect(active).toMatchObject({ date: 'triggeredAt', from: '2026-06-01', to: '2026-06-30', currency: '' });
    expect(filtersFromSearch('?filter.date=dueAt', ['date']).date).toBe('dueAt');
    expect(filtersFromSearch(search, ['from', 'to', 'scope']).date).toBe('');
  });

  it('writes only filled filters the report offers, in the form order', () => {
    const filters = filtersFromSearch('', ['from', 'to', 'scope', 'currency']);
    const query = queryOf({ ...filters, to: '2026-06-30', scope: '/org/acme/', taskType: 'followUp' }, [
      'from',
      'to',
      'scope',
      'currency',
    ]);
    expect(query.toString()).toBe('filter.to=2026-06-30&filter.scope=%2Forg%2Facme%2F');
  });

  it('opens on the default period unless the address names one or a run wrote it', () => {
    const period = { from: '2025-11-27', to: '2026-11-26' };
    const menu = filtersFromSearch('?filter.date=triggeredAt', ['date', 'from', 'to', 'taskType'], period);
    expect(menu).toMatchObject({ date: 'triggeredAt', from: '2025-11-27', to: '2026-11-26' });
    expect(filtersFromSearch('', ['from', 'to', 'scope'], period)).toMatchObject(period);
    // A shared address keeps its own period, even an open end.
    expect(filtersFromSearch('?filter.from=2026-06-01', ['from', 'to'], period)).toMatchObject({
      from: '2026-06-01',
      to: '',
    });
    // A run over all dates wrote run=1 without dates: it stays over all dates.
    expect(filtersFromSearch('?run=1', ['from', 'to'], period)).toMatchObject({ from: '', to: '' });
  });

  it('exports the last run on the report path with export=csv', () => {
    const query = new URLSearchParams('filter.from=2026-06-01');
    expect(exportHref('/reports/requests/closed', query)).toBe(
      '/reports/requests/closed?filter.from=2026-06-01&export=csv',
    );
    expect(exportHref('/reports/users', new URLSearchParams())).toBe('/reports/users?export=csv');
    expect(query.has('export')).toBe(false);
  });

  it('maps the field errors of a 400 to the form fields', () => {
    expect(
      fieldErrorsByFilter({ 'filter.to': 'The end date is before the start date.', export: 'x' }),
    ).toEqual({ to: 'The end date is before the start date.' });
    expect(fieldErrorsByFilter(undefined)).toEqual({});
  });

  it('marks a refused range on the date changed last: a bad From leaves a valid To alone', () => {
    const filters = filtersFromSearch('?filter.from=2026-07-01&filter.to=2026-06-01', ['from', 'to']);
    const refused = { to: 'The end date is before the start date.' };
    const t = (key: string) =>
      key === 'reports.startAfterEnd' ? 'The start date is after the end date.' : key;
    expect(rangeAtChangedDate(refused, filters, 'from', t)).toEqual({
      from: 'The start date is after the end date.',
    });
    expect(rangeAtChangedDate(refused, filters, 'to', t)).toEqual(refused);
  });
});
