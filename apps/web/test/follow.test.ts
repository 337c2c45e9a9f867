import type { View } from '@dossier/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isNewerOrSame } from '../src/features/requests/live/useFollowRequest';
import { followChanges } from '../src/view/follow';

// An open page (here the request page) follows changes made elsewhere: bursts cost one fetch, and while the user
// edits, the fetched view is held back instead of replacing the page.

const requestView = (version: number, requestNumber = 'ABC251122QXT42'): View => ({
  $type: 'request',
  request: { requestNumber, version },
});

function setup(editing = false) {
  const state = { editing, version: 2 };
  const fetch = vi.fn(async () => requestView(state.version));
  const apply = vi.fn();
  const hold = vi.fn();
  const follower = followChanges({ fetch, isEditing: () => state.editing, apply, hold });
  return { state, fetch, apply, hold, follower };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('following the open request', () => {
  it('fetches once for a burst of changes, 300 ms after the first, and puts the view in', async () => {
    const t = setup();
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(100);
    t.follower.changed();
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(150);
    expect(t.fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(50);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.apply).toHaveBeenCalledWith(requestView(2));
    expect(t.hold).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });

  it('fetches once more when a change comes while a fetch is under way', async () => {
    const t = setup();
    let answer: (v: View) => void = () => undefined;
    t.fetch.mockImplementationOnce(() => new Promise<View>((resolve) => (answer = resolve)));
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    t.follower.changed();
    answer(requestView(2));
    await vi.advanceTimersByTimeAsync(300);
    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.apply).toHaveBeenCalledTimes(2);
  });

  it('holds the view back while the user edits, and puts it in once they do not', async () => {
    const t = setup(true);
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.apply).not.toHaveBeenCalled();
    expect(t.hold).toHaveBeenCalledWith(requestView(2));
    t.state.editing = false;
    t.state.version = 3;
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.apply).toHaveBeenCalledWith(requestView(3));
  });

  it('does nothing once stopped (the page was left)', async () => {
    const t = setup();
    t.follower.changed();
    t.follower.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('never replaces the shown view with an older one or another request', () => {
    const n = 'ABC251122QXT42';
    expect(isNewerOrSame(requestView(3), requestView(2), n)).toBe(true);
    expect(isNewerOrSame(requestView(2), requestView(2), n)).toBe(true);
    expect(isNewerOrSame(requestView(1), requestView(2), n)).toBe(false);
    expect(isNewerOrSame(requestView(3, 'XYZ251122AAA10'), requestView(2), n)).toBe(false);
    expect(isNewerOrSame(requestView(3), { $type: 'home' }, n)).toBe(false);
  });
});
