import { createRequestNumber, type Permission, permissionsOfRole } from '@dossier/core';

// The callers of the authorization matrix (matrix.ts), the objects of /org/acme/ they are called
// with, and who holds what: the vocabulary the matrix's rows are written in.

export const CALLERS = [
  'anonymous',
  'submitterAcme',
  'submitterGlobex',
  'externalWithRef',
  'externalOtherRef',
  'handlerAcme',
  'handlerGlobex',
  'managerAcme',
  'managerGlobex',
  'adminAcme',
  'adminGlobex',
  'newcomer',
  /** A handler of /org/acme/ whose roles were all removed while its session stayed open (issue 32):
   * it still holds that session, a cached actor and an acme task, and is refused wherever the
   * newcomer (no roles) is. */
  'revokedHandlerAcme',
  'apiAcme',
  'apiGlobex',
  /** A key of /org/acme/ with the API scope payeeRead only. */
  'apiAcmePayeesOnly',
  /** The SCIM client of acme's configuration, its token taken by adminAcme (issue 32): it reaches
   * what the user screens let adminAcme change, so never the acme user holding a role at globex. */
  'scimAcme',
  /** The recipient of acme's request, signed in on the recipient's page with its link and passcode
   * (issue 34): its session is for that link only, and is no session anywhere else. */
  'recipientAcme',
  /** The recipient of a globex request, on its own link's page: it never reaches acme's. */
  'recipientGlobex',
] as const;
export type Caller = (typeof CALLERS)[number];

/** The roles of each session caller (the API keys hold every API scope at their organisation). */
export const CALLER_ROLES: Record<
  Exclude<
    Caller,
    | 'anonymous'
    | 'apiAcme'
    | 'apiGlobex'
    | 'apiAcmePayeesOnly'
    | 'scimAcme'
    | 'recipientAcme'
    | 'recipientGlobex'
  >,
  string
> = {
  submitterAcme: 'c:roles:submitter',
  submitterGlobex: 'c:roles:submitter',
  externalWithRef: 'c:roles:external',
  externalOtherRef: 'c:roles:external',
  handlerAcme: 'c:roles:handler',
  handlerGlobex: 'c:roles:handler',
  managerAcme: 'c:roles:manager',
  managerGlobex: 'c:roles:manager',
  adminAcme: 'c:roles:admin',
  adminGlobex: 'c:roles:admin',
  newcomer: '',
  // What it holds now; matrixFixtures.ts made it a handler of acme and took the role afterwards.
  revokedHandlerAcme: '',
};

/** Callers with no right to anything of /org/acme/: whatever they are answered names no acme object. */
export const OUTSIDERS: readonly Caller[] = [
  'anonymous',
  'submitterGlobex',
  'externalOtherRef',
  'handlerGlobex',
  'managerGlobex',
  'adminGlobex',
  'newcomer',
  'revokedHandlerAcme',
  'apiGlobex',
  // Of acme, but its one API scope reaches only the shared payee directory.
  'apiAcmePayeesOnly',
  'recipientGlobex',
];

/** What an acme caller is never shown, whatever it may call: invoices, results awaiting quality
 * assurance, mail and configuration are staff business, a draft and an unattached upload are their author's alone. */
export const NEVER_SHOWN: Partial<Record<Caller, Secret[]>> = {
  submitterAcme: ['invoice', 'pendingResult', 'mail', 'configuration'],
  externalWithRef: ['invoice', 'pendingResult', 'mail', 'configuration', 'draft', 'file'],
  handlerAcme: ['draft', 'file'],
  managerAcme: ['draft', 'file'],
  adminAcme: ['draft', 'file'],
  apiAcme: ['draft', 'file', 'configuration'],
  scimAcme: ['dualUser'],
  // The recipient sees what is asked about the applicant, nothing of the work on the request.
  recipientAcme: [
    'note',
    'task',
    'result',
    'pendingResult',
    'invoice',
    'file',
    'draft',
    'inbox',
    'mail',
    'configuration',
    'userName',
    'userEmail',
    'payee',
  ],
};

export const SESSION_CALLERS = Object.keys(CALLER_ROLES) as Caller[];
export const ACME = new Set<Caller>([
  'submitterAcme',
  'externalWithRef',
  'externalOtherRef',
  'handlerAcme',
  'managerAcme',
  'adminAcme',
]);

export const EVERYONE: readonly Caller[] = CALLERS;
export const SIGNED_IN: readonly Caller[] = SESSION_CALLERS;

/** Session callers whose role grants the permission somewhere (their own organisation). */
export function holders(permission: Permission): Caller[] {
  return SESSION_CALLERS.filter((c) =>
    permissionsOfRole(CALLER_ROLES[c as keyof typeof CALLER_ROLES]).includes(permission),
  );
}
/** Of the holders, those whose role is at /org/acme/ (the external callers only with the reference). */
export function acmeHolders(permission: Permission): Caller[] {
  return holders(permission).filter((c) => ACME.has(c) && c !== 'externalOtherRef');
}
export const either = (...lists: Caller[][]) => [...new Set(lists.flat())];

/** Who sees the acme request: its submitter organisation, its staff and the external with its reference. */
export const REQUEST_VIEWERS = acmeHolders('request:view');
/** Staff of the acme request (results awaiting QA, invoices). */
export const REQUEST_STAFF: Caller[] = ['handlerAcme', 'managerAcme', 'adminAcme'];
export const REQUEST_HANDLERS = acmeHolders('request:handle');
export const API_KEYS: Caller[] = ['apiAcme', 'apiGlobex'];
/** The holders of a recipient's page session (issue 34). */
export const RECIPIENTS: Caller[] = ['recipientAcme', 'recipientGlobex'];
/** The callers holding a SCIM client's token. */
export const SCIM_CLIENT: Caller[] = ['scimAcme'];

/** SCIM bodies (RFC 7643): a user, a group with members, a PATCH of one operation. */
export const scimUser = (userName: string, email: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  externalId: `ext-${userName}`,
  name: { givenName: 'Matrix', familyName: userName },
  emails: [{ value: email, primary: true }],
  active: true,
});
export const scimGroup = (displayName: string, memberIds: string[]) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName,
  members: memberIds.map((value) => ({ value })),
});
export const scimPatch = (op: string, path: string, value: unknown) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op, path, value }],
});

/** Ids of the acme objects, made by the test; a route's `:name` parameters are filled from `params`. */
export interface Fixtures {
  requestNumber: string;
  resultId: string;
  /** A result awaiting quality assurance: staff only. */
  pendingResultId: string;
  pendingResultFileKey: string;
  invoiceId: string;
  invoiceFileKey: string;
  noteId: string;
  /** A senderActionRequired task (the sender side answers it) and a followUp task (staff only). */
  taskId: string;
  staffTaskId: string;
  /** A user of /org/acme/ who also holds a role at /org/globex/ (named SECRETS.dualUser). */
  dualUserId: string;
  dualUserVersion: number;
  draftId: string;
  fileKey: string;
  resultFileKey: string;
  apiFileKey: string;
  inboxMessageId: string;
  userId: string;
  claimId: string;
  recipientId: string;
  payeeId: string;
  configurationId: string;
  configurationEntryId: string;
  webhookEntryId: string;
  /** A scimClientEntry of acme's configuration. */
  scimEntryId: string;
  /** A group of that SCIM client with the acme user and the dual user as members. */
  scimGroupId: string;
  mailId: string;
  /** The link of acme's request on the recipient's page, and its access. */
  recipientToken: string;
  recipientAccessId: string;
}

/** The identifying strings of the acme objects: a refused answer, or an outsider's, holds none. */
export const SECRETS = {
  requestNumber: createRequestNumber('MTX', new Date()),
  applicant: 'Quintessa Matrixapplicant',
  note: 'Matrix note confidential 4711',
  task: 'Matrix task notice 8812',
  result: 'matrix-result-7731.pdf',
  pendingResult: 'matrix-pending-2291.pdf',
  invoice: 'matrix-invoice-5521.pdf',
  file: 'matrix-upload-9182.pdf',
  draft: 'Draftina Matrixdraft',
  inbox: 'Matrix inbox subject 3319',
  userName: 'Ulrich Matrixuser',
  userEmail: 'ulrich.matrix@acme.example',
  recipient: 'Matrix Recipient Clinic 4410',
  payee: 'Matrix Payee Pty 5520',
  configuration: 'Matrix Acme Settings 6630',
  configurationName: 'Matrix Acme Configuration 6631',
  mail: 'Matrix mail subject 7740',
  dualUser: 'Dorothea Matrixdual',
} as const;
export type Secret = keyof typeof SECRETS;

export interface Expectation {
  /** A name for a variant of a route (an action, a tile); shown in failures. */
  variant?: string;
  /** Callers that pass authorization; every other caller is refused. */
  allow: readonly Caller[];
  /** Path parameters beyond the defaults (see defaultParams in matrix.test.ts). */
  params?: (f: Fixtures) => Record<string, string>;
  query?: string;
  /** The body of a write (default {}). */
  body?: (f: Fixtures) => unknown;
  /** Statuses besides 2xx/3xx that mean "allowed past authorization" for an allowed caller. */
  pastAuth?: number[];
  /** Statuses that count as a refusal for everyone (default 401 anonymous, 403/404 others). */
  refusedAs?: number[];
  /** Runs after the reads (1) or last of all (2): for actions that change the objects. */
  order?: 1 | 2;
  /** Acme objects every allowed acme caller is shown here: the control that the leak check of the
   * outsiders on the same route can fail at all. */
  shows?: Secret[];
  /** Acme objects an allowed outsider may see here, and why. */
  mayShow?: { secrets: Secret[]; why: string };
  /** The route validates its body (or query) before it fully checks the caller: an empty body (or
   * query) gets some refused callers a 400. Reported, not failed (it shows no data); the refusal
   * itself is checked with `body` and `query`. Without this note such a 400 fails. */
  validatesFirst?: string;
  /** Cells whose expectation is right but the app is wrong, and known: skipped, printed. */
  knownDefects?: Partial<Record<Caller, string>>;
}

/** Routes not in the matrix, with why. */
export const EXCLUDED: Record<string, string> = {
  'GET /__ws': 'a websocket upgrade (covered by the live tests)',
  'GET /assets/*': 'static files from disk, public by design',
  'POST /signout': 'ends the caller session; takes no input and reaches no object',
  'PUT /files/upload/:key':
    'authorized by the signature of its upload URL, not by the caller (files.test.ts covers bad signatures)',
};

export const SHARED_DIRECTORY = {
  secrets: ['recipient', 'payee'] as Secret[],
  why: 'the recipient and payee directory is shared by every organisation by design',
};
export const acme = encodeURIComponent('/org/acme/');

/** The variants of a route with an :action parameter, one per action (its variant name). */
export const actions = (list: (Expectation & { variant: string })[]): Expectation[] =>
  list.map((e) => ({ ...e, params: (f) => ({ ...(e.params?.(f) ?? {}), action: e.variant }) }));
