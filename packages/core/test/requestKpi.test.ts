import { describe, expect, it } from 'vitest';
import { computeRequestKpi, mentionedUserIds, mentionToken, splitMentions } from '../src/index.js';

// Dates are instants at 10:00 Sydney time (UTC+11 in summer) so the local date is the day named.
const at = (date: string) => new Date(`${date}T10:00:00+11:00`);

describe('computeRequestKpi', () => {
  it('counts calendar and business days from submission to now, skipping weekends and holidays', () => {
    // Mon 2026-12-21 → Mon 2027-01-04: 14 calendar days; business days after the 21st up to the 4th
    // less 25th (Fri), 28th (Mon), 1st (Fri) and the two weekends: 22,23,24,29,30,31,4 = 7.
    const kpi = computeRequestKpi({
      submittedAt: at('2026-12-21'),
      closedAt: null,
      now: at('2027-01-04'),
      tasks: [],
      holidays: ['2026-12-25', '2026-12-28', '2027-01-01'],
    });
    expect(kpi).toEqual({
      calendarDaysElapsed: 14,
      businessDaysElapsed: 7,
      daysPendedExternal: 0,
      daysPendedInternal: 0,
      businessDaysElapsedLessPended: 7,
    });
  });

  it('stops the clock at the close date', () => {
    const kpi = computeRequestKpi({
      submittedAt: at('2026-11-02'),
      closedAt: at('2026-11-06'),
      now: at('2026-12-30'),
      tasks: [],
      holidays: [],
    });
    expect(kpi.calendarDaysElapsed).toBe(4);
    expect(kpi.businessDaysElapsed).toBe(4);
  });

  it('subtracts business days with an open pending task, a day pended both ways once', () => {
    const kpi = computeRequestKpi({
      submittedAt: at('2026-11-02'), // Monday
      closedAt: null,
      now: at('2026-11-13'), // Friday of the next week: 9 business days
      tasks: [
        // Open Tue 3rd → completed Thu 5th: pends the 4th and 5th.
        { type: 'senderActionRequired', triggeredAt: at('2026-11-03'), completedAt: at('2026-11-05') },
        // Opened Wed 4th, still open: pends 5,6,9,10,11,12,13 (weekend skipped).
        { type: 'actionDeferred', triggeredAt: at('2026-11-04'), completedAt: null },
      ],
      holidays: ['2026-11-10'],
    });
    expect(kpi.businessDaysElapsed).toBe(8);
    expect(kpi.daysPendedExternal).toBe(2);
    expect(kpi.daysPendedInternal).toBe(6);
    // Pended days together: 4,5,6,9,11,12,13 = 7.
    expect(kpi.businessDaysElapsedLessPended).toBe(1);
  });

  it('ignores the part of a pending task before submission or after close', () => {
    const kpi = computeRequestKpi({
      submittedAt: at('2026-11-04'),
      closedAt: at('2026-11-06'),
      now: at('2026-11-30'),
      tasks: [{ type: 'senderActionRequired', triggeredAt: at('2026-11-02'), completedAt: null }],
      holidays: [],
    });
    expect(kpi.daysPendedExternal).toBe(2);
    expect(kpi.businessDaysElapsedLessPended).toBe(0);
  });
});

describe('mentions', () => {
  it('finds the mentioned users in a rich text document, once each', () => {
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [{ type: 'text', text: `Please call ${mentionToken('Ann Lee', 'ann')} and @[Bob](bob).` }],
        },
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'Again @[Ann Lee](ann), not @ann or @[x]( y)' }],
        },
      ],
    };
    expect(mentionedUserIds(doc)).toEqual(['ann', 'bob']);
  });

  it('splits text into plain parts and mentions for display', () => {
    expect(splitMentions('Hi @[Ann Lee](ann)!')).toEqual([
      { text: 'Hi ' },
      { text: '@Ann Lee', userId: 'ann' },
      { text: '!' },
    ]);
  });
});
