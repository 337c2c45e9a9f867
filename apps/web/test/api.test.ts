import { saveDraftRoute, signInRoute, storedFileRoute } from '@dossier/core';
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

  it('downloads a file route as a Blob, its key encoded and its query appended', async () => {
    const { fetch, calls } = fakeFetch(() => new Response('%PDF-1.4', { status: 200 }));
    const blob = await createApi(fetch).download(storedFileRoute, {
      params: { key: 'abc/def-1234' },
      query: { attachment: '1' },
    });
    expect(await blob.text()).toBe('%PDF-1.4');
    const call = itemAt(calls, 0);
    const init = call.init!;
    expect(call.path).toBe('/files/abc%2Fdef-1234?attachment=1');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect((init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
  });

  it('turns a refused download into ApiError with the server message', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'You may not read this file.' }, 403, 'Forbidden'));
    const error = await createApi(fetch)
      .download(storedFileRoute, { params: { key: 'abcdefghij' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('403: You may not read this file.');
  });

  it('puts an upload to its target with the headers POST /files answered', async () => {
    const { fetch, calls } = fakeFetch(() => json({ key: 'k', size: 3 }));
    const file = new Blob(['abc'], { type: 'text/plain' });
    await createApi(fetch).upload(
      {
        key: 'k',
        uploadUrl: '/files/upload/k?expires=1&signature=s',
        headers: { 'content-type': 'text/plain' },
      },
      file,
    );
    const call = itemAt(calls, 0);
    expect(call.path).toBe('/files/upload/k?expires=1&signature=s');
    expect(call.init?.method).toBe('PUT');
    expect(call.init?.headers).toEqual({ 'content-type': 'text/plain' });
    expect(call.init?.body).toBe(file);
  });

  it('fails an upload the target did not take, with its message', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'The file is larger than announced.' }, 413));
    const target = { key: 'k', uploadUrl: '/u', headers: {} };
    await expect(createApi(fetch).upload(target, new Blob(['x']))).rejects.toThrow(
      '413: The file is larger than announced.',
    );
  });
});
