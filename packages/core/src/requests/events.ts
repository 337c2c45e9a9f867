// The events recorded about a request (events.type where aggregate_type = 'request'). The server
// writes only these names; the workflow rules, the history and the sender's view read them. A new
// event is added here first, so every reader sees it in its type.
export const REQUEST_EVENT_NAMES = [
  'request.submitted',
  'request.issued',
  'request.issuedAgain',
  'request.recipientDetailsConfirmed',
  'request.recipientChanged',
  'request.partEdited',
  'request.closed',
  'request.reOpened',
  'request.noteAdded',
  'request.correspondenceEdited',
  'request.messageReceived',
  'request.messageLinked',
  'request.messageUnlinked',
  'request.messageSenderAccepted',
  'request.messageSharedWithSender',
  'request.messageSharingStopped',
  'request.mailDeliveryFailed',
  'request.taskAdded',
  'request.taskCompleted',
  'request.taskMarkedInProgress',
  'request.taskClaimed',
  'request.taskAssigned',
  'request.taskReleased',
  'request.taskReassigned',
  'request.resultAdded',
  'request.resultQualityAssured',
  'request.resultDiscarded',
  'request.resultDownloaded',
  'request.undeliveredResultDownloaded',
  'request.invoiceAdded',
  'request.invoicePaid',
  'request.invoicePartPaid',
  'request.invoicePaymentConfirmed',
  'request.invoiceDiscarded',
  'request.remittanceAdviceSent',
  'request.legalHoldPlaced',
  'request.legalHoldRemoved',
  'request.filesRemoved',
  'request.deIdentified',
  // The recipient's page (issue 34): its link sent, opened, locked, revoked; what came through it.
  'request.recipientAccessSent',
  'request.recipientAccessOpened',
  'request.recipientAccessLocked',
  'request.recipientAccessRevoked',
  'request.recipientUploaded',
  'request.recipientAnswered',
  'request.recipientMessage',
] as const;

export type RequestEventName = (typeof REQUEST_EVENT_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(REQUEST_EVENT_NAMES);

/** For a name read back from the database, which may predate a rename. */
export function isRequestEventName(name: string): name is RequestEventName {
  return NAMES.has(name);
}
