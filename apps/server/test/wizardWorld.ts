import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

// The people and helpers of the wizard's tests: submitters of Acme (sam, sue) and Globex (gale), a
// root handler and an external advisor of Acme, each signed in; calls as a signed-in user; an
// uploaded authority PDF; a complete request as the wizard sends it.

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const ACME = '/org/acme/';
export const GLOBEX = '/org/globex/';
export const submitterOf = (scope: string) => ({ scope, roles: [{ role: 'c:roles:submitter', scope }] });

export interface WizardWorld {
  t: TestContext;
  sam: string;
  sue: string;
  gale: string;
  handler: string;
  advisor: string;
  call(
    cookie: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  uploadPdf(cookie: string, name?: string): Promise<{ key: string; name: string }>;
  requestData(cookie: string, organization?: string): Promise<ReturnType<typeof requestShape>>;
}

function requestShape(organization: string, authority: { key: string; name: string }) {
  return {
    sender: { organization },
    applicant: {
      name: 'Jane Citizen',
      dateOfBirth: '1980-02-29',
      country: 'AU',
      authority,
      reference1: 'JC-REF-1',
    },
    recipient: {
      name: 'Northside Clinic',
      phone: '02 9000 1111',
      email: 'records@northside.example',
      tags: { kind: 'hospital' },
    },
    content: {
      itemTypes: [
        {
          id: 'itemGeneralPractice',
          smartFormAnswers: { consultationNotes: 'yes' } as Record<string, unknown>,
          submitterSuppliedFields: { patientId: 'P-77' },
        },
      ],
      additionalQuestions: [{ text: 'Any imaging?' }],
    },
  };
}

/** Sets the world up before the file's tests and closes it after them. */
export function useWizardWorld(): WizardWorld {
  const world = {} as WizardWorld;
  world.call = (cookie, method, url, payload) =>
    world.t.app.inject({ method, url, headers: { ...XHR, cookie }, payload: payload as object });
  world.uploadPdf = async (cookie, name = 'authority.pdf') => {
    const res = await world.call(cookie, 'POST', '/files', {
      name,
      contentType: 'application/pdf',
      contentLength: PDF.length,
      publicReadAccess: false,
    });
    const { key, uploadUrl } = res.json();
    const put = await world.t.app.inject({
      method: 'PUT',
      url: uploadUrl,
      headers: { 'content-type': 'application/pdf' },
      payload: PDF,
    });
    expect(put.statusCode).toBe(200);
    return { key, name };
  };
  world.requestData = async (cookie, organization = ACME) =>
    requestShape(organization, await world.uploadPdf(cookie));
  beforeAll(async () => {
    const t = await createTestContext();
    world.t = t;
    await seedConfiguration(t.db, { demo: true });
    invalidateConfigurationCache(t.db);
    await createUser(t.db, { id: 'sam', ...submitterOf(ACME) });
    await createUser(t.db, { id: 'sue', ...submitterOf(ACME) });
    await createUser(t.db, { id: 'gale', ...submitterOf(GLOBEX) });
    await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
    await createUser(t.db, {
      id: 'advisor',
      scope: ACME,
      roles: [{ role: 'c:roles:external', scope: ACME, externalReference: 'ADV-1' }],
    });
    world.sam = await signIn(t.app, 'sam');
    world.sue = await signIn(t.app, 'sue');
    world.gale = await signIn(t.app, 'gale');
    world.handler = await signIn(t.app, 'handler');
    world.advisor = await signIn(t.app, 'advisor');
  });
  afterAll(() => world.t.close());
  return world;
}
