#!/usr/bin/env node
// A complete round trip through Dossier's public API, with nothing but Node.js (20 or later).
//
//   node docs/api/example-client.mjs keygen [name]   # makes name.pem (private) and prints the public key
//   DOSSIER_URL=http://localhost:3000 DOSSIER_KEY_ID=partnerKey DOSSIER_PRIVATE_KEY=partner.pem \
//     node docs/api/example-client.mjs
//
// The key: run `keygen`, paste the RSA PUBLIC KEY block it prints into a new API key entry of the
// configuration editor (Administration → Configuration → a configuration → add an API key), tick the
// API scopes fileWrite, requestWrite, requestRead, requestResultRead, requestInvoiceWrite and
// requestInvoiceRead, and use the entry's Key ID as DOSSIER_KEY_ID.
//
// What it does: signs a fresh short-lived RS256 JWT for every call (kid = the key id, aud = the
// audience the server publishes in /api/v1/openapi.json, exp two minutes ahead, a new jti), uploads
// a file, submits a request carrying it, reads the request, lists its results and uploads an invoice.
// Optional: DOSSIER_ORGANIZATION (default /org/acme/), DOSSIER_ITEM_TYPE (default itemGeneralPractice),
// DOSSIER_FILE (a PDF to send; default a tiny generated one).

import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import fs from 'node:fs';

const base = (process.env.DOSSIER_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

if (process.argv[2] === 'keygen') {
  const name = process.argv[3] ?? 'dossier-api-key';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  fs.writeFileSync(`${name}.pem`, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  console.log(`Private key written to ${name}.pem. Paste this into the API key entry:\n`);
  console.log(publicKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim());
  process.exit(0);
}

const kid = required('DOSSIER_KEY_ID');
const privateKey = createPrivateKey(fs.readFileSync(required('DOSSIER_PRIVATE_KEY')));
const organization = process.env.DOSSIER_ORGANIZATION ?? '/org/acme/';
const itemType = process.env.DOSSIER_ITEM_TYPE ?? 'itemGeneralPractice';
const pdf = process.env.DOSSIER_FILE
  ? fs.readFileSync(process.env.DOSSIER_FILE)
  : Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see the top of this file).`);
    process.exit(2);
  }
  return value;
}

const b64url = (value) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

let audience;

/** A new token per call: the server refuses a token id (jti) it has seen before. */
function token() {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url({ alg: 'RS256', typ: 'JWT', kid });
  const payload = b64url({ aud: audience, iat: now, exp: now + 120, jti: randomUUID() });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

async function api(method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token()}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Two steps: announce the file, then PUT its bytes to the signed URL answered. */
async function upload(name, bytes) {
  const { key, uploadUrl, headers } = await api('POST', '/api/v1/files', {
    name,
    contentType: 'application/pdf',
    contentLength: bytes.length,
  });
  const put = await fetch(uploadUrl, { method: 'PUT', headers, body: bytes });
  if (!put.ok) throw new Error(`upload of ${name} answered ${put.status}: ${await put.text()}`);
  return { key, name };
}

const openapi = await (await fetch(`${base}/api/v1/openapi.json`)).json();
audience = openapi['x-audience'];
console.log(`API ${openapi.info.version}, audience ${audience}`);

const authority = await upload('authority.pdf', pdf);
console.log(`uploaded the authority: ${authority.key}`);

const { requestNumber } = await api('POST', '/api/v1/requests', {
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
    // The recipient tags the directory marks required (Kind) come with a new recipient.
    tags: { kind: 'doctor' },
  },
  content: {
    itemTypes: [
      {
        id: itemType,
        smartFormAnswers: { consultationNotes: 'yes' },
        submitterSuppliedFields: { patientId: 'P-77' },
      },
    ],
    additionalQuestions: [{ text: 'Any imaging?' }],
  },
});
console.log(`submitted request ${requestNumber}`);

const request = await api('GET', `/api/v1/requests/${requestNumber}`);
console.log(`request ${request.requestNumber} is ${request.status}`);

const { results } = await api('GET', `/api/v1/requests/${requestNumber}/results`);
console.log(`results so far: ${results.length}`);

const invoiceFile = await upload('invoice.pdf', pdf);
const { invoiceId } = await api('POST', `/api/v1/requests/${requestNumber}/invoices`, {
  file: invoiceFile,
  tags: { invoiceType: 'Records fee' },
  amountExclusiveTax: 10000,
  tax: 1000,
  amount: 11000,
  currency: 'AUD',
});
console.log(`uploaded invoice ${invoiceId}`);

const { invoices } = await api('GET', `/api/v1/requests/${requestNumber}/invoices`);
console.log(`invoices: ${invoices.map((i) => `${i.invoiceId} ${i.amount / 100} ${i.currency}`).join(', ')}`);
console.log('round trip complete');
