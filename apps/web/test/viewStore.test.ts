import type { View } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api';
import { createViewStore, type ViewTransport } from '../src/view/viewStore';
import { deferred } from './helpers';

function transport(overrides: Partial<ViewTransport> = {}) {
  const gets: string[] = [];
  const t: ViewTransport = {
    get: async (path) => {
      gets.push(path);
      return { $type: 'page', title: path };
    },
    post: async () => ({ $type: 'page', saved: true }),
    ...overrides,
  };
  return { t, gets };
}

const home: View = { $type: 'home', title: 'Home' };

describe('view store', () => {
  it('uses the embedded view and does not fetch it', () => {
    const { t, gets } = transport();
    const store = createViewStore({ path: '/', view: home }, t);
    expect(store.get()).toMatchObject({
      path: '/',
      view: home,
      loading: false,
      committing: false,
      errors: [],
    });
    expect(gets).toEqual([]);
  });

  it('a newer load overrides an older one whose answer comes late', async () => {
    const first = deferred<View>();
    const second = deferred<View>();
    const answers = [first, second];
    const store = createViewStore(
      { path: '/', view: home },
      transport({ get: () => answers.shift()!.promise }).t,
    );
    const a = store.load('/a');
    const b = store.load('/b');
    expect(store.get().loading).toBe(true);
    second.resolve({ $type: 'b' });
    await b;
    first.resolve({ $type: 'a' });
    await a;
    expect(store.get().view.$type).toBe('b');
    expect(store.get().path).toBe('/b');
    expect(store.get().loading).toBe(false);
  });

  it('an unknown route becomes the invalidUrl view with the path', async () => {
    const error = new ApiError(404, 'Not Found', { message: 'Invalid URL: /nope', code: 'invalidUrl' });
    const store = createViewStore(
      { path: '/', view: home },
      transport({ get: () => Promise.reject(error) }).t,
    );
    await store.load('/nope?x=1');
    expect(store.get().view).toEqual({ $type: 'invalidUrl', path: '/nope' });
    expect(store.get().errors).toEqual([]);
  });

  it('a 401 opens the sign-in overlay; other errors go to the banner', async () => {
    const failures = [
      new ApiError(401, 'Unauthorized', { message: 'Sign in required.' }),
      new ApiError(500, 'Internal Server Error', {}),
    ];
    const store = createViewStore(
      { path: '/', view: home },
      transport({ get: () => Promise.reject(failures.shift()) }).t,
    );
    await store.load('/a');
    expect(store.get().signInRequired).toBe(true);
    expect(store.get().errors).toEqual([]);
    await store.load('/b');
    expect(store.get().errors).toEqual(['500: Internal Server Error']);
    store.signedIn();
    expect(store.get()).toMatchObject({ signInRequired: false, errors: [] });
  });

  it('reload fetches the last path again', async () => {
    const { t, gets } = transport();
    const store = createViewStore({ path: '/requests/ABC?tab=1', view: home }, t);
    await store.reload();
    expect(gets).toEqual(['/requests/ABC?tab=1']);
  });

  it('a commit sets committing and replaces or merges the view', async () => {
    const answer = deferred<View>();
    const store = createViewStore(
      { path: '/x', view: { $type: 'form', a: 1, b: 1 } },
      transport({ post: () => answer.promise }).t,
    );
    store.edit((v) => ({ ...v, a: 2 }));
    expect(store.get().dirty).toBe(true);
    const pending = store.commit('/x', store.get().view, { merge: true });
    expect(store.get().committing).toBe(true);
    answer.resolve({ $type: 'form', b: 3 });
    const result = await pending;
    expect(result.ok).toBe(true);
    expect(store.get()).toMatchObject({
      committing: false,
      dirty: false,
      view: { $type: 'form', a: 1, b: 3 },
    });

    const replacing = createViewStore({ path: '/x', view: { $type: 'form', a: 1 } }, transport().t);
    await replacing.commit('/x', {});
    expect(replacing.get().view).toEqual({ $type: 'page', saved: true });
  });

  it('a failed commit reports the error and answers it', async () => {
    const error = new ApiError(400, '', { message: 'Bad.', code: 'invalid', fields: { name: 'Required.' } });
    const store = createViewStore(
      { path: '/x', view: home },
      transport({ post: () => Promise.reject(error) }).t,
    );
    const result = await store.commit('/x', {});
    expect(result).toEqual({ ok: false, error });
    // A refusal is the server's reason, kept apart from failures to communicate.
    expect(store.get()).toMatchObject({ committing: false, errors: [], refusals: ['Bad.'] });
  });

  it('a quiet commit answers its failure without a banner line, for controls that show it', async () => {
    const error = new ApiError(409, '', {
      message: 'The task is already assigned to you.',
      code: 'conflict',
    });
    const store = createViewStore(
      { path: '/x', view: home },
      transport({ post: () => Promise.reject(error) }).t,
    );
    const result = await store.commit('/tasks/1/claim?answer=request', {}, { quiet: true });
    expect(result).toEqual({ ok: false, error });
    expect(store.get()).toMatchObject({ committing: false, errors: [], view: home });
  });

  it('keeps one banner line per failure, clears it on the next attempt and on another page', async () => {
    const error = new ApiError(400, '', { message: 'Enter a scope path.', code: 'invalid' });
    const store = createViewStore(
      { path: '/admin/configuration', view: home },
      transport({ post: () => Promise.reject(error) }).t,
    );
    await store.commit('/admin/configuration/new', {});
    store.report(error);
    expect(store.get().refusals).toEqual(['Enter a scope path.']);
    const next = store.commit('/admin/configuration/new', {});
    expect(store.get().refusals).toEqual([]);
    await next;
    expect(store.get().refusals).toEqual(['Enter a scope path.']);
    await store.load('/admin/configuration?page=2');
    expect(store.get().refusals).toEqual(['Enter a scope path.']);
    await store.load('/admin/configuration/edit/c');
    expect(store.get().refusals).toEqual([]);
  });

  it('a network failure, a 5xx or an answer without a reason is a communication error; a 4xx reason a refusal', () => {
    const store = createViewStore({ path: '/x', view: home }, transport().t);
    store.report(new TypeError('Failed to fetch'));
    store.report(new ApiError(503, 'Service Unavailable', undefined));
    store.report(new ApiError(409, 'Conflict', { message: 'The request is closed.', code: 'conflict' }));
    store.report(new ApiError(404, 'Not Found', undefined));
    expect(store.get().errors).toEqual(['Failed to fetch', '503: Service Unavailable', '404: Not Found']);
    expect(store.get().refusals).toEqual(['The request is closed.']);
    store.dismissErrors();
    expect(store.get()).toMatchObject({ errors: [], refusals: [] });
  });

  it('revert goes back to the saved copy', () => {
    const store = createViewStore({ path: '/x', view: { $type: 'form', a: 1 } }, transport().t);
    store.edit((v) => ({ ...v, a: 5 }));
    store.revert();
    expect(store.get()).toMatchObject({ dirty: false, view: { $type: 'form', a: 1 } });
  });

  it('after the same user signs in again, keeps the edits of the page they were made on', async () => {
    const { t, gets } = transport();
    const store = createViewStore({ path: '/account', view: { $type: 'form', a: 1 } }, t);
    store.edit((v) => ({ ...v, a: 2 }));
    await store.reloadKeepingEdits();
    expect(gets).toEqual([]);
    expect(store.get()).toMatchObject({ dirty: true, view: { a: 2 } });
    // Not dirty: the page loads again.
    store.revert();
    await store.reloadKeepingEdits();
    expect(gets).toEqual(['/account']);
  });

  it('loads the page a 401 stopped, not the edits of the page before it', async () => {
    let refuse = true;
    const { t, gets } = transport({
      get: async (path) => {
        gets.push(path);
        if (refuse)
          throw new ApiError(401, 'Unauthorized', { message: 'Unauthorized', code: 'unauthorized' });
        return { $type: 'page', title: path };
      },
    });
    const store = createViewStore({ path: '/account', view: { $type: 'form', a: 1 } }, t);
    store.edit((v) => ({ ...v, a: 2 }));
    await store.load('/inbox');
    refuse = false;
    await store.reloadKeepingEdits();
    expect(gets).toEqual(['/inbox', '/inbox']);
    expect(store.get()).toMatchObject({ dirty: false, view: { title: '/inbox' } });
  });
});
