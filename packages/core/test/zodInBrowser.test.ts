import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// packages/core/src/zodInBrowser.ts sets jitless in globalThis.__zod_globalConfig before zod loads,
// so the browser never probes eval (the page's policy forbids it). That works only while zod keeps
// its settings there; this fails first if a zod upgrade moves them.
describe('zod settings for the browser', () => {
  it('zod reads its settings from globalThis.__zod_globalConfig', () => {
    const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
    expect(z.config()).toBe(scope.__zod_globalConfig);
  });
});
