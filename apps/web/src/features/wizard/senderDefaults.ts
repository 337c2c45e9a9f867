import {
  type DraftData,
  type ItemTypeAnswer,
  isValidEmail,
  type RequestRecipient,
  type SenderData,
} from '@dossier/core';

// What changes when an organisation's data arrives on the Sender step: an on-behalf-of choice the
// organisation no longer offers is cleared, item types it does not offer are dropped (its
// pre-selected ones are chosen when none is), and its applicant defaults fill what is still empty.

export function emptyItemAnswer(id: string, name?: string): ItemTypeAnswer {
  return {
    id,
    name,
    smartFormAnswers: {},
    excludedQuestions: [],
    submitterSuppliedFields: {},
    fieldSets: {},
    fieldSetFiles: {},
    files: [],
  };
}

export function applySenderData(data: DraftData, sender: SenderData): DraftData {
  const offered = sender.requestItemCategories.flatMap((c) => c.itemTypes);
  const onBehalfOf = data.sender?.submittedOnBehalfOf;
  const keep = onBehalfOf && sender.submitters.some((s) => s.id === onBehalfOf);
  let itemTypes = (data.content?.itemTypes ?? []).filter((a) => offered.some((t) => t.id === a.id));
  if (itemTypes.length === 0)
    itemTypes = offered.filter((t) => t.isPreSelected).map((t) => emptyItemAnswer(t.id, t.name));
  const applicant = data.applicant ?? {};
  return {
    ...data,
    sender: { ...data.sender, submittedOnBehalfOf: keep ? onBehalfOf : null },
    applicant: {
      ...applicant,
      reference1Type: applicant.reference1Type || sender.applicant.reference1Type,
      authority: applicant.authority ?? sender.applicant.preLoadedApplicantAuthority,
    },
    content: { ...data.content, itemTypes },
  };
}

/**
 * The recipient form opened by Enter New after a search: filled from the terms typed, the email
 * only when it is a valid address.
 */
export function newRecipientFromSearch(
  terms: Record<string, string>,
  country: string,
): Partial<RequestRecipient> {
  const email = terms.email?.trim() ?? '';
  return {
    name: terms.name?.trim() ?? '',
    phone: terms.phone?.trim() ?? '',
    streetAddress: terms.address?.trim() || null,
    email: isValidEmail(email) ? email : null,
    country,
    tags: {},
    contacts: [],
    attachments: [],
  };
}
