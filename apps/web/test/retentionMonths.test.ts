import { describe, expect, it } from 'vitest';
import { monthsOf } from '../src/features/retention/RetentionRuns';
import { initI18n } from '../src/i18n';

// The access log's partitions as the Retention page says them (issue 36): months as 2023-04, the
// default partition in words.

describe('the access log months of a retention run', () => {
  it('reads months as people write them and the default partition in words', () => {
    const i18n = initI18n('en-au');
    expect(monthsOf(['access_log_2022_11', 'access_log_2022_12', 'access_log_default'], i18n.t)).toBe(
      '2022-11, 2022-12, older entries stored outside the monthly parts',
    );
  });
});
