import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../src/i18n';
import { copyToClipboard, readClipboard } from '../src/ui/clipboard';

initI18n('en-au');

describe('clipboard helpers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('alerts with the specification text when the browser cannot write or read the clipboard', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    vi.stubGlobal('navigator', {});
    expect(await copyToClipboard('x')).toBe(false);
    expect(await readClipboard()).toBeUndefined();
    expect(alert.mock.calls).toEqual([
      ['Error: Writing to clipboard not supported in browser'],
      ['Error: Reading to clipboard not supported in browser'],
    ]);
  });

  it('uses the clipboard when there is one', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText, readText: async () => 'pasted' } });
    expect(await copyToClipboard('copied')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('copied');
    expect(await readClipboard()).toBe('pasted');
  });
});
