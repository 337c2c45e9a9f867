import { saveDraftRoute, signInRoute } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { ApiError, createApi } from '../src/api';
import { fakeFetch, itemAt, json } from './helpers';

describe('api', () => {
  it('sends X-Requested-With and same-origin credentials, and strips client state from JSON bodies', async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }));
    const api = createApi(fetch);
    await api.post('/account', {
      $type: 'user',
      $dirty: { name: true },
      name: 'A',
      nested: [{ $x: 1, y: 2 }],
    });
    const init = itemAt(calls, 0).init!;
    expect((init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
    expect(init.credentials).toBe('same-origin');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ $type: 'user', name: 'A', nested: [{ y: 2 }] });
  });

  it('posts form-urlencoded bodies', async () => {
    const { fetch, calls } = fakeFetch(() => json({ user: null }));
    await createApi(fetch).postForm('/signin', { username: 'a b', password: 'p&q' });
    const init = itemAt(calls, 0).init!;
    expect((init.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(init.body).toBe('username=a+b&password=p%26q');
  });

  it('calls a contract form-encoded when asked, as the sign-in form posts it', async () => {
    const { fetch, calls } = fakeFetch(() => json({ user: null }));
    const answer = await createApi(fetch).call(
      signInRoute,
      { body: { username: 'a b', password: 'p&q', 'return-url': undefined } },
      { asForm: true },
    );
    expect(answer).toEqual({ user: null });
    const { path, init } = itemAt(calls, 0);
    expect(path).toBe('/signin');
    expect(init!.method).toBe('POST');
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(init!.body).toBe('username=a+b&password=p%26q');
  });

  it('sends a call that must outlive the page with keepalive, its params in the path', async () => {
    const { fetch, calls } = fakeFetch(() => json({ draftId: 'd', savedAt: 'now' }));
    const draftId = '0b6a4a2e-8d1c-4f7e-9a51-3c2f1e0d9b7a';
    await createApi(fetch).call(
      saveDraftRoute,
      { params: { draftId }, body: { completedStep: 1, data: {} } },
      { keepalive: true },
    );
    const { path, init } = itemAt(calls, 0);
    expect(path).toBe(`/drafts/${draftId}`);
    expect(init!.method).toBe('PUT');
    expect(init!.keepalive).toBe(true);
    expect(JSON.parse(init!.body as string)).toEqual({ completedStep: 1, data: {} });
  });

  it('turns a failed answer into "status: message" and keeps code and fields', async () => {
    const { fetch } = fakeFetch(() =>
      json(
        { message: 'Validation failed.', code: 'invalid', fields: { email: 'Bad email.' } },
        400,
        'Bad Request',
      ),
    );
    const error = await createApi(fetch)
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('400: Validation failed.');
    expect((error as ApiError).code).toBe('invalid');
    expect((error as ApiError).fields).toEqual({ email: 'Bad email.' });
  });

  it('falls back to the status text when the server gives no message', async () => {
    const { fetch } = fakeFetch(() => new Response('oops', { status: 502, statusText: 'Bad Gateway' }));
    await expect(createApi(fetch).get('/x')).rejects.toThrow('502: Bad Gateway');
  });
});
