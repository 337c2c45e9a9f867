import fs from 'node:fs';
import path from 'node:path';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { PORT } from './playwright.config';

// The demo requires a second factor of administrators (issue 35), so journeys signing in as one meet
// it as a person would. Nothing is switched off for them: a user whose role requires one enrols a code
// generator through the account page the first time (the harness reads the secret shown, as an app
// would), and the second step answered once with "Remember this device" (the e2e server sets
// SIGNIN_REMEMBER_DEVICE) gives a device cookie that later contexts of that user carry, so the
// product's own remembered-device path skips the code. Where the code is asked anyway, the harness
// computes it, never one of a step already used (the server refuses a replay within its step).
// The registry of secrets and devices is a file in the e2e server's data folder (workers: 1), so it
// goes with the database serve.mjs starts afresh; globalSetup.ts enrols `admin` into it.

const REGISTRY = path.resolve(
  import.meta.dirname,
  '..',
  '.tmp',
  `e2e-data-${PORT}`,
  'e2e-second-factors.json',
);

interface Enrolled {
  secret: string;
  /** The last time step whose code was given: the next code must be of a later step. */
  lastStep: number;
  /** The `dossier_device` cookie of a remembered browser. */
  device?: string;
}

type Registry = Record<string, Enrolled>;

const STEP_MS = 30_000;

export function readRegistry(): Registry {
  try {
    return JSON.parse(fs.readFileSync(REGISTRY, 'utf8')) as Registry;
  } catch {
    return {};
  }
}

export function writeRegistry(registry: Registry): void {
  fs.mkdirSync(path.dirname(REGISTRY), { recursive: true });
  fs.writeFileSync(REGISTRY, JSON.stringify(registry, null, 2));
}

function update(username: string, change: (entry: Enrolled | undefined) => Enrolled): void {
  const registry = readRegistry();
  registry[username] = change(registry[username]);
  writeRegistry(registry);
}

/**
 * A code of the user's generator for a step after the last one given (the server takes the
 * current step and one either side); waits for the clock when the next free step is too far ahead.
 */
export async function nextCode(secret: string, lastStep: number): Promise<{ code: string; step: number }> {
  const now = Date.now();
  const step = Math.max(Math.floor(now / STEP_MS), lastStep + 1);
  // More than one step ahead of the clock would be refused: wait until it is one step ahead.
  const wait = (step - 1) * STEP_MS - now;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 50));
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  return { code: totp.generate({ timestamp: step * STEP_MS }), step };
}

/** Records a user's code generator (its secret and the step whose code confirmed it). */
export function recordEnrolment(username: string, secret: string, step: number): void {
  update(username, () => ({ secret, lastStep: step }));
}

/** Records the remembered-device cookie the browser got at the second step. */
export function recordDevice(username: string, device: string): void {
  update(username, (entry) => ({ secret: entry?.secret ?? '', lastStep: entry?.lastStep ?? 0, device }));
}

/** Gives a new context the user's remembered-device cookie, if the user has one. */
export async function carryDevice(context: BrowserContext, username: string): Promise<void> {
  const device = readRegistry()[username]?.device;
  if (!device) return;
  await context.addCookies([
    {
      name: 'dossier_device',
      value: device,
      domain: 'localhost',
      path: '/signin',
      httpOnly: true,
      sameSite: 'Strict',
      expires: Math.floor(Date.now() / 1000) + 86_400,
    },
  ]);
}

/** Whether the session only may enrol a second factor (the server answers 403 secondFactorRequired). */
async function mustEnrol(page: Page): Promise<boolean> {
  const res = await page.request.get('/help', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  return res.status() === 403 && ((await res.json()) as { code?: string }).code === 'secondFactorRequired';
}

/** Enrols a code generator on the account page the sign-in took the user to, as the user would. */
async function enrolCodeGenerator(page: Page, username: string): Promise<void> {
  await page.getByTestId('second-factor-add').click();
  const secret = (await page.getByTestId('second-factor-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  const { code, step } = await nextCode(secret, 0);
  await page.getByTestId('second-factor-name').fill('Journeys');
  await page.getByTestId('second-factor-code').fill(code);
  await page.getByTestId('second-factor-confirm').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  recordEnrolment(username, secret, step);
  await page.getByTestId('recovery-codes-done').click();
}

/** Answers the second step with the user's next code, asking to remember this browser. */
async function answerCode(page: Page, username: string): Promise<void> {
  const entry = readRegistry()[username];
  if (!entry?.secret) throw new Error(`${username} has a second factor the journeys do not know`);
  const { code, step } = await nextCode(entry.secret, entry.lastStep);
  update(username, (e) => ({ ...(e as Enrolled), lastStep: step }));
  await page.getByTestId('signin-code').fill(code);
  const remember = page.getByTestId('signin-remember');
  if (await remember.count()) await remember.check();
  await page.getByTestId('signin-code-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin') || url.searchParams.has('err'));
  const device = (await page.context().cookies()).find((c) => c.name === 'dossier_device');
  if (device) recordDevice(username, device.value);
}

/**
 * After the password: the second step or the enrolment a role requires, whichever the sign-in
 * asked for; then on to `path`, where the sign-in was going.
 */
export async function completeSecondFactor(page: Page, username: string, path: string): Promise<void> {
  const url = new URL(page.url());
  if (url.pathname === '/signin' && url.searchParams.get('step') === 'code') {
    // The code form posts with the return address: it lands where the sign-in was going.
    await answerCode(page, username);
  } else if (url.pathname === '/account' && (await mustEnrol(page))) {
    await enrolCodeGenerator(page, username);
    await page.goto(path);
  }
}
