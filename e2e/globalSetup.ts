import { request } from '@playwright/test';
import { ADMIN } from './fixtures';
import { PORT } from './playwright.config';
import { nextCode, readRegistry, writeRegistry } from './secondFactors';

// Before the journeys (the servers are up): the demo's root requires a second factor of
// administrators (issue 35), so `admin` enrols a code generator through the account's routes, as
// its first sign-in asks, then signs in with password and code ticking "Remember this device".
// signIn (fixtures.ts) gives later contexts that device cookie, so admin journeys sign in as a
// person on their own computer does, without a code each time; secondFactor.spec.ts and
// passkeys.spec.ts take the second step itself through the screens.

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

export default async function globalSetup(): Promise<void> {
  const api = await request.newContext({ baseURL: `http://localhost:${PORT}` });
  try {
    const signIn = () => api.post('/signin', { headers: XHR, form: { ...ADMIN } });
    const first = await signIn();
    if (!first.ok()) throw new Error(`admin's sign-in answered ${first.status()}: ${await first.text()}`);
    const enrolment = await api.post('/account/second-factors', { headers: XHR, data: { kind: 'totp' } });
    if (!enrolment.ok())
      throw new Error(`enrolment answered ${enrolment.status()}: ${await enrolment.text()}`);
    const { id, secret } = (await enrolment.json()) as { id: string; secret: string };
    const confirmCode = await nextCode(secret, 0);
    const confirmed = await api.post(`/account/second-factors/${id}/confirm`, {
      headers: XHR,
      data: { name: 'Journeys', code: confirmCode.code },
    });
    if (!confirmed.ok())
      throw new Error(`confirming answered ${confirmed.status()}: ${await confirmed.text()}`);

    // From now on the password is followed by a code; this browser asks to be remembered.
    const second = await signIn();
    if (!((await second.json()) as { secondFactor?: boolean }).secondFactor)
      throw new Error('admin signed in without the second step');
    const signInCode = await nextCode(secret, confirmCode.step);
    const done = await api.post('/signin/second-factor', {
      headers: XHR,
      form: { code: signInCode.code, remember: '1' },
    });
    if (!done.ok()) throw new Error(`the second step answered ${done.status()}: ${await done.text()}`);
    const device = (await api.storageState()).cookies.find((c) => c.name === 'dossier_device');
    if (!device) throw new Error('the second step remembered no device (SIGNIN_REMEMBER_DEVICE?)');
    writeRegistry({
      ...readRegistry(),
      [ADMIN.username]: { secret, lastStep: signInCode.step, device: device.value },
    });
  } finally {
    await api.dispose();
  }
}
