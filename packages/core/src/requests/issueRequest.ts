import type { IssueRequestMethod, RequestRecipient } from './model.js';

// Where an issued request goes for each method (issueRequest): email needs an email address,
// fax a fax number and post a postal address. The recipient record has a fax field of its own: a fax
// goes to it only, never to the phone (a voice line), so fax is offered only where there is one.
// The email of the contact the request is addressed to wins over the recipient's general address;
// a street address serves for post when there is no postal address.

type RecipientAddresses = Pick<
  RequestRecipient,
  'email' | 'fax' | 'phone' | 'postalAddress' | 'streetAddress'
> & {
  contact?: { email?: string | null | undefined } | null | undefined;
};

export function issueRequestAddress(
  method: IssueRequestMethod,
  recipient: Partial<RecipientAddresses>,
): string | undefined {
  const pick = (...values: (string | null | undefined)[]) =>
    values.map((v) => v?.trim()).find((v): v is string => !!v);
  if (method === 'email') return pick(recipient.contact?.email, recipient.email);
  if (method === 'faxNumber') return pick(recipient.fax);
  return pick(recipient.postalAddress, recipient.streetAddress);
}

/** The preferred method the recipient allows: email, else fax, else post. */
export function defaultIssueRequestMethod(recipient: Partial<RecipientAddresses>): IssueRequestMethod {
  if (issueRequestAddress('email', recipient)) return 'email';
  if (issueRequestAddress('faxNumber', recipient)) return 'faxNumber';
  return 'postal';
}

/** The message of the field error when the recipient lacks what the method needs. */
export const ISSUE_REQUEST_ADDRESS_MISSING: Record<IssueRequestMethod, string> = {
  email: 'The recipient has no email address.',
  faxNumber: 'The recipient has no fax number.',
  postal: 'The recipient has no postal address.',
};
