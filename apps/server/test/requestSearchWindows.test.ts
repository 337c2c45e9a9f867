import { type SqlBool, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RequestSearchTerms,
  searchRequests,
  TOTAL_CAP,
} from '../src/features/requestSearch/repository.js';
import { firstWindow, monthOf, searchWindows, shareOf } from '../src/features/requestSearch/windows.js';
import type { visibleRequests } from '../src/features/requests/index.js';
import { createTestContext, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// A full-text search over many requests reads them a window of months at a time, newest first
// (migration 20261201_0001). Here 300 requests over three years are searched in windows that start at
// one or three months, and every answer must be the one of a single search over everything: the same
// page, in the same order, with the same count up to the cap.

let t: TestContext;
const FIRST = ['Ada', 'Bo', 'Cy'];
const LAST = ['Quill', 'Rook', 'Stone', 'Quillan'];
const WINDOW = 10;

type Visible = ReturnType<typeof visibleRequests>;
const everyone: Visible = () => sql<SqlBool>`true`;
const acmeOnly: Visible = () => sql<SqlBool>`scope like '/org/acme/%'`;

beforeAll(async () => {
  t = await createTestContext();
  // A fixed sequence instead of Math.random, so a failure can be run again as it was.
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < 300; i++) {
    // Every tenth request shares the instant of the one before: ties are ordered by number.
    const at = i % 10 === 9 ? start + (i - 1) * 3.6e6 * 85 : start + i * 3.6e6 * 85;
    await insertTestRequest(t.db, {
      scope: i % 3 === 0 ? '/org/globex/' : '/org/acme/',
      prefix: i % 3 === 0 ? 'GLX' : 'ACM',
      applicant: { name: `${FIRST[next(3)]} ${LAST[next(4)]} ref-${i % 7}` },
      submittedAt: new Date(at),
    });
  }
  await sql`analyze requests`.execute(t.db);
});
afterAll(() => t.close());

/** A search in windows of `firstMonths` months first (then as the matches found size them), or as it is. */
const search = (visible: Visible, terms: RequestSearchTerms, firstMonths: number | 'as it is', offset = 0) =>
  searchRequests(t.db, visible, terms, offset, 50, firstMonths === 'as it is' ? undefined : firstMonths);

describe('the full-text search in windows of months', () => {
  it('sizes the windows by the matches expected and then by those found', async () => {
    const { rows } = await sql<{ oldest: Date; newest: Date }>`
      select min(submitted_at) as oldest, max(submitted_at) as newest from requests`.execute(t.db);
    const span = rows[0];
    if (!span) throw new Error('no requests');
    const all = { oldest: monthOf(span.oldest), newest: monthOf(span.newest), requests: 300 };
    const months = all.newest - all.oldest + 1;
    expect(months).toBe(35);
    // Ten wanted of words every request holds, about 8.6 a month: two months.
    expect(firstWindow(all, 1, 10, WINDOW)).toBe(2);
    // Words of a fifth of the requests: twenty wanted take fifteen months, over a quarter of the
    // span, so one statement without windows; ten take eight.
    expect(firstWindow(all, 0.2, 20, WINDOW)).toBeUndefined();
    expect(firstWindow(all, 0.2, 10, WINDOW)).toBe(8);
    const first = 1;
    // With nothing found, each window four times the one before, newest first, without gaps or overlaps.
    const windows = [...searchWindows(all, first, () => 0, 201)];
    expect(windows.map((w) => w.length).slice(0, 3)).toEqual([1, 4, 16]);
    expect(windows.flat()).toEqual(
      Array.from({ length: all.newest - all.oldest + 1 }, (_, i) => all.newest - i),
    );
    // Ten found in the first month: the next window is sized to hold the other 191, with a quarter to spare.
    let found = 0;
    const sized = searchWindows(all, 1, () => found, 201);
    expect(sized.next().value).toEqual([all.newest]);
    found = 10;
    expect(sized.next().value?.length).toBe(24);
    // Never more than the whole span, and none without a window of its own.
    expect(firstWindow({ ...all, requests: 5 }, 1, 201, WINDOW)).toBeUndefined();
  });

  it('estimates the share of requests a query matches from the statistics of its words', () => {
    const shares = {
      words: new Map([
        ['olivia', 0.016],
        ['harbour', 0.025],
        ["o'neil", 0.01],
      ]),
      floor: 0.002,
    };
    // Independent words multiply; the spelt-out prefix adds up; a rare word counts half the floor.
    expect(shareOf("( 'olivia' ) & ( 'harbour' | 'harbourside' )", shares)).toBeCloseTo(0.016 * 0.026, 8);
    expect(shareOf("'harbour' | 'harbourside'", shares)).toBeCloseTo(0.026, 8);
    expect(shareOf("'o''neil' & 'olivia'", shares)).toBeCloseTo(0.01 * 0.016, 8);
    // A prefix left as a prefix, or no statistics: every request, so the windows start small.
    expect(shareOf("'olivia' & 'har':*", shares)).toBeCloseTo(0.016, 8);
    expect(shareOf("'olivia'", undefined)).toBe(1);
  });

  const queries: RequestSearchTerms[] = [
    { tsquery: "'ada':*" },
    { tsquery: "'ada' & 'quill':*" },
    { tsquery: "'quill'" },
    { tsquery: "'bo' & 'ro':*" },
    { tsquery: "'cy' & 'stone'" },
    { tsquery: "'nobody':*" },
    { tsquery: "'ada':*", submittedAtFrom: '2024-06-01', submittedAtTo: '2025-03-31' },
    { tsquery: "'quill':*", submittedAtTo: '2024-02-15' },
    { tsquery: "'bo':*", submittedAtFrom: '2026-01-01' },
    // A hyphenated word is a phrase, which the month index cannot match: searched over everything.
    { tsquery: "'cy' & 'ref-3':*" },
  ];

  for (const terms of queries) {
    it(`finds what one search over everything finds: ${JSON.stringify(terms)}`, async () => {
      for (const visible of [everyone, acmeOnly]) {
        for (const offset of [0, 50, 150]) {
          const whole = await search(visible, terms, 'as it is', offset);
          for (const firstMonths of [1, 3])
            expect(await search(visible, terms, firstMonths, offset)).toEqual(whole);
        }
      }
    });
  }

  it('counts up to the cap and pages newest first, as the straightforward query does', async () => {
    const terms = { tsquery: "'ada' | 'bo' | 'cy'" };
    const { rows } = await sql<{ request_number: string }>`
      select request_number from requests
      where search @@ to_tsquery('simple', 'ada | bo | cy')
      order by submitted_at desc, request_number desc`.execute(t.db);
    expect(rows.length).toBe(300);
    const found = await search(everyone, terms, 1, 150);
    expect(found.total).toBe(TOTAL_CAP);
    expect(found.capped).toBe(true);
    expect(found.rows.map((r) => r.request_number)).toEqual(
      rows.slice(150, TOTAL_CAP).map((r) => r.request_number),
    );
  });
});
