import type { View } from '@dossier/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdsChange, isNewerOrSame } from '../src/features/requests/live/useFollowRequest';
import { createViewFollower, followChanges } from '../src/view/follow';
import { createViewStore } from '../src/view/viewStore';

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

describe('following the view of the open page', () => {
  const N = 'ABC251122QXT42';
  const path = `/requests/${N}`;

  function setup(options: { editing?: boolean } = {}) {
    const post = vi.fn();
    const store = createViewStore({ path, view: requestView(2) }, { get: vi.fn(), post });
    const server = { version: 3 };
    const fetch = vi.fn(async () => requestView(server.version));
    const held: boolean[] = [];
    const follower = createViewFollower({
      store,
      fetch,
      path: (shown) => shown.path,
      accepts: (fresh, shown) => isNewerOrSame(fresh, shown.view, N),
      onHeld: (h) => held.push(h),
      editing: options.editing,
    });
    const version = () => (store.get().view.request as { version: number }).version;
    return { store, server, fetch, held, follower, version, post };
  }
  const holds = (since: number) => (shown: { view: View }) => holdsChange(shown.view, N, since);

  it('puts the newer view in, as shown and as saved, when nothing is edited', async () => {
    const t = setup();
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.fetch).toHaveBeenCalledWith(path);
    expect(t.version()).toBe(3);
    expect(t.store.get().saved).toEqual(requestView(3));
    expect(t.held).toEqual([]);
  });

  it('holds the view back while a panel is open; Show changes puts it in and keeps following', async () => {
    const t = setup({ editing: true });
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.version()).toBe(2);
    expect(t.held).toEqual([true]);
    t.follower.showChanges();
    expect(t.version()).toBe(3);
    expect(t.held).toEqual([true, false]);
    // Still editing: the next change waits again, and closing the panel lets it in.
    t.server.version = 4;
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.version()).toBe(3);
    expect(t.held).toEqual([true, false, true]);
    t.follower.setEditing(false);
    expect(t.version()).toBe(4);
    expect(t.held).toEqual([true, false, true, false]);
  });

  it('holds the view back while the view is dirty, even with no panel open', async () => {
    const t = setup();
    t.store.edit((v) => ({ ...v, draft: 'typed' }));
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.store.get().view).toMatchObject({ draft: 'typed' });
    expect(t.held).toEqual([true]);
    // Closing a panel does not let it in over unsaved edits; reverting them and closing does.
    t.follower.setEditing(false);
    expect(t.store.get().view).toMatchObject({ draft: 'typed' });
    t.store.revert();
    t.follower.setEditing(false);
    expect(t.version()).toBe(3);
  });

  it('never puts an older view in than the one the page saved meanwhile', async () => {
    const t = setup();
    t.store.patch(() => requestView(5));
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.version()).toBe(5);
  });

  it('fetches nothing for a change the page’s own action answered: one round trip per action', async () => {
    const t = setup();
    // The action commits at version 2 → 3; its push (recorded at 2) comes before the answer.
    let answer: (view: View) => void = () => undefined;
    t.post.mockImplementation(() => new Promise<View>((resolve) => (answer = resolve)));
    const commit = t.store.commit(`${path}/actions/addNote`, {});
    t.follower.changed(holds(2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.fetch).not.toHaveBeenCalled();
    answer(requestView(3));
    await commit;
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.fetch).not.toHaveBeenCalled();
    expect(t.version()).toBe(3);
  });

  it('fetches a change the shown view does not hold, and a burst with one change that cannot tell', async () => {
    const t = setup();
    t.follower.changed(holds(2));
    await vi.advanceTimersByTimeAsync(300);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.version()).toBe(3);
    t.follower.changed(holds(1));
    t.follower.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(t.fetch).toHaveBeenCalledTimes(2);
  });
});
