import { richTextFromParagraphs } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findControlCharacter, hasForbiddenControl } from '../../src/http/controlCharacters.js';
import { userMessageOf } from '../../src/http/zodMessages.js';
import { caller } from '../accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from '../helpers.js';
import { insertTestRequest } from '../support/requests.js';

// Input the database would refuse (NUL and other control characters) and zod's own wording: both
// come back as field errors a user can read (issue 13), never a 500 or a message about zod.

const NOT_ALLOWED = 'Contains characters that are not allowed.';

let t: TestContext;
let handler: ReturnType<typeof caller>;
let n: string;
beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  handler = caller(t.app, await signIn(t.app, 'handler'));
  n = await insertTestRequest(t.db, { scope: '/org/acme/' });
});
afterAll(() => t.close());

describe('control characters', () => {
  it('a NUL in the query is a field error, before any SQL', async () => {
    const res = await handler.get('/requests/search?q=%00');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Some fields are missing or invalid.',
      code: 'validation',
      fields: { q: NOT_ALLOWED },
    });
    const inside = await handler.get('/requests/search?q=abc%00def');
    expect(inside.json().fields).toEqual({ q: NOT_ALLOWED });
  });

  it('a NUL or a control character in a body field names that field', async () => {
    const note = richTextFromParagraphs('Hello\u0000world');
    const res = await handler.post(`/requests/${n}/actions/addNote`, { body: note });
    expect(res.statusCode).toBe(400);
    const fields = res.json().fields as Record<string, string>;
    expect(Object.values(fields)).toEqual([NOT_ALLOWED]);
    expect(Object.keys(fields)[0]).toMatch(/^body\.content\.0\.content\.0\.text$/);
    // Other C0 controls too (here an escape), but not tab, CR and LF.
    const withEscape = await handler.post(`/requests/${n}/actions/addNote`, {
      body: richTextFromParagraphs('a\u001b[31mred'),
    });
    expect(withEscape.json().fields).toEqual({ 'body.content.0.content.0.text': NOT_ALLOWED });
    const fine = await handler.post(`/requests/${n}/actions/addNote`, {
      body: richTextFromParagraphs('line one\twith a tab\r\nline two'),
    });
    expect(fine.statusCode).toBe(200);
  });

  it('in a form body, a path parameter and an object key too', async () => {
    const form = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=handler%00&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(form.statusCode).toBe(400);
    expect(form.json().fields).toEqual({ username: NOT_ALLOWED });
    const param = await handler.get('/requests/12%0034');
    expect(param.statusCode).toBe(400);
    expect(Object.values(param.json().fields)).toEqual([NOT_ALLOWED]);
    const key = await handler.post(`/requests/${n}/actions/addNote`, {
      body: richTextFromParagraphs('x'),
      'bad\u0000key': 1,
    });
    expect(key.statusCode).toBe(400);
    expect(key.json().fields).toEqual({ 'bad\uFFFDkey': NOT_ALLOWED });
  });

  it('finds the first offending string in document order, iteratively', () => {
    expect(hasForbiddenControl('tab\tcr\rlf\n')).toBe(false);
    expect(hasForbiddenControl('\u0000')).toBe(true);
    expect(hasForbiddenControl('\u001f')).toBe(true);
    expect(findControlCharacter({ a: 'ok', b: ['x', { c: '\u0001' }], d: '\u0000' })).toEqual([
      'b',
      '1',
      'c',
    ]);
    expect(findControlCharacter(Buffer.from([0, 1, 2]))).toBeUndefined();
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findControlCharacter(deep)).toHaveLength(100_000);
  });
});

describe('messages of missing and invalid fields', () => {
  it('a missing required field says so, in words, never zod internals', async () => {
    const res = await handler.post(`/requests/${n}/actions/addNote`, { text: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ body: 'This field is required.' });
    // The same through the route schemas (fastify-type-provider-zod).
    const upload = await handler.post('/files', { name: 'a.pdf', contentType: 'application/pdf' });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().fields).toEqual({ contentLength: 'This field is required.' });
    for (const message of Object.values(
      (await handler.post('/files', { name: 1, contentType: [], contentLength: 'x' })).json().fields,
    )) {
      expect(message).not.toMatch(/expected|received|nonoptional|Invalid input/);
    }
  });

  it('maps each zod issue to plain words; a message on the schema still wins', () => {
    const schema = z.object({
      name: z.string().min(1),
      long: z.string().max(3),
      kind: z.enum(['a', 'b']),
      count: z.number().int().min(2),
      own: z.string({ error: 'Give a name.' }),
    });
    const parsed = schema.safeParse({ long: 'abcd', kind: 'c', count: 1 });
    expect(parsed.success).toBe(false);
    const messages = Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(messages).toEqual({
      name: 'This field is required.',
      long: 'Must be at most 3 characters long.',
      kind: 'Choose one of the offered values.',
      count: 'Must be at least 2.',
      own: 'Give a name.',
    });
    expect(userMessageOf({ code: 'custom', input: 1, path: [] } as never)).toBeUndefined();
  });
});
