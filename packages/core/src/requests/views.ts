import type { AuthMethod } from '../secondFactor.js';
import type {
  Applicant,
  IssueRequestMethod,
  RequestContent,
  RequestFile,
  RequestKpi,
  RequestRecipient,
  RequestStatus,
  Sender,
  TagValues,
} from './model.js';

// The shapes the server sends for the request page and its linked lists. Server
// and web both use these; each list is built by its own feature on the server.

export interface TagDefinition {
  id: string;
  name: string;
  values: string[];
  isRequired: boolean;
}

export interface RequestTaskItem {
  taskId: string;
  type: string;
  subject: string;
  requestNumber: string | null;
  messageId: string | null;
  notice: string | null;
  triggeredAt: string;
  triggeredByDisplayName: string | null;
  /** When it is (or was) due; 9999-12-31 means no due date. `completedAt` tells a done task. */
  dueAt?: string | undefined;
  completedAt?: string | undefined;
  completedByDisplayName?: string | undefined;
  markedInProgressAt?: string | undefined;
  markedInProgressByDisplayName?: string | undefined;
  isAssignedTo?: string | undefined;
  isAssignedToDisplayName?: string | undefined;
  isOverdue: boolean;
  wasCompletedBeforeDueDate?: boolean | undefined;
  canNotComplete: boolean;
  canNotMarkInProgress: boolean;
  /** Offers of the hand-over controls (POST /tasks/{id}/claim, /assign, /release). */
  canNotClaim: boolean;
  canNotAssign: boolean;
  canNotRelease: boolean;
}

export interface ResultItem {
  resultId: string;
  requestNumber: string;
  file: RequestFile;
  tags: TagValues;
  createdAt: string;
  createdBy: string | null;
  createdByDisplayName?: string | null;
  qualityAssuredAt?: string | undefined;
  qualityAssuredBy?: string | undefined;
  qualityAssuredByDisplayName?: string | undefined;
  qualityAssuranceSkipped: boolean;
  downloadedAt?: string | undefined;
  downloadedBy?: string | undefined;
  discardedAt?: string | undefined;
  /** When retention or an erasure removed the file from storage (issue 36); its row stays. */
  fileRemovedAt?: string | undefined;
  /** The applicant's name. */
  subject?: string;
  itemTypes: { id: string; name: string }[];
}

export const PAYMENT_METHODS = ['bankTransfer', 'creditCard', 'cheque'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** How documents and exports name a payment method. */
export const PAYMENT_METHOD_NAMES: Record<PaymentMethod, string> = {
  bankTransfer: 'Bank transfer',
  creditCard: 'Credit card',
  cheque: 'Cheque',
};

export interface Payment {
  payeeId?: string | null;
  payeeName: string;
  payeeReferenceNumber?: string | null;
  payeeEmail?: string | null;
  method: PaymentMethod;
  /** Minor units (cents). */
  amountExclusiveTax: number;
  tax: number;
  amount: number;
  currency: string;
  nameOnCard?: string | null;
  bankAccount?: string | null;
  invoiceReferenceNumber?: string | null;
}

export interface InvoiceItem {
  invoiceId: string;
  requestNumber: string;
  file: RequestFile;
  tags: TagValues;
  createdAt: string;
  createdByDisplayName: string | null;
  paidAt?: string | undefined;
  paidByDisplayName?: string | undefined;
  paymentConfirmedAt?: string | undefined;
  discardedAt?: string | undefined;
  discardedByDisplayName?: string | undefined;
  /** When retention or an erasure removed the file from storage (issue 36); its row stays. */
  fileRemovedAt?: string | undefined;
  remittanceAdvice?: RequestFile | undefined;
  notice?: string | null;
  foreignReference?: { url: string; label: string } | null;
  amount?: number | null;
  amountExclusiveTax?: number | null;
  tax?: number | null;
  currency?: string | null;
  /** The sum of the payments (minor units). */
  paid: number;
  /** amount − paid; null when the invoice was received without an amount. */
  balance: number | null;
  /** Oldest first. The invoice's own amounts above are what was billed; a payment never changes them. */
  payments: InvoicePaymentItem[];
}

/** One payment of an invoice (a part payment, or the one that settled it). */
export interface InvoicePaymentItem extends Payment {
  paymentId: string;
  paidAt: string;
  paidByDisplayName?: string | undefined;
  /** The newest remittance advice sent for this payment. */
  remittanceAdvice?: RequestFile | undefined;
}

export interface CorrespondenceAddress {
  displayName?: string | null;
  email?: string | null;
  phone?: string | null;
  postalAddress?: string | null;
}

export interface CorrespondenceItem {
  messageId: string;
  /**
   * A message matched by its request number from an address that is not the recipient's (an
   * addition to the specification): shown to staff with a warning until one accepts it, and not
   * to the sender side meanwhile. `canAcceptSender` tells whether this user may accept it.
   */
  unverifiedSender?: boolean;
  canAcceptSender?: boolean;
  /** Sent in by the recipient on the recipient's page (issue 34), not by mail, fax or post. */
  viaRecipientPage?: boolean;
  /**
   * A received message (mail, fax or post scan) is staff's until shared with the sender side
   * (issue 32). To the sender side an entry whose content it may not see comes with `withheld`:
   * its date, from and subject, an empty body and no attachments. To staff, `sharedWithSender` says
   * since when and by whom it is shared, and `canShareWithSender` / `canStopSharingWithSender`
   * whether this user may change that now.
   */
  withheld?: boolean;
  sharedWithSender?: { at: string; byDisplayName: string | null };
  canShareWithSender?: boolean;
  canStopSharingWithSender?: boolean;
  requestNumber: string;
  kind: 'note' | 'issuedRequest' | 'message';
  createdAt: string;
  createdByDisplayName: string | null;
  updatedAt?: string;
  updatedByDisplayName?: string;
  isEditable: boolean;
  isUrgentNote: boolean;
  isLinkedToMessage: boolean;
  isEmailCorrespondence: boolean;
  issueRequestMethod?: IssueRequestMethod;
  /** queued, sent, failed (mail out); absent for notes. */
  messageDeliveryStatus?: string;
  from?: CorrespondenceAddress | null;
  to?: CorrespondenceAddress | null;
  /** A blocked attachment (an executable, say) is listed with why, and never offered to open. */
  attachments: { key: string; name: string; blocked?: boolean; blockedReason?: string }[];
  subject?: string | null;
  body: { type: 'richText' | 'html' | 'text'; content: unknown };
}

/** The five parts of the request page that can be edited (POST /requests/{n}/{part}). */
export const REQUEST_PARTS = ['summary', 'kpi', 'sender', 'applicant', 'recipient', 'content'] as const;
export type RequestPart = (typeof REQUEST_PARTS)[number];

export interface RequestSummary {
  requestNumber: string;
  status: RequestStatus;
  scope: string;
  sender: Sender & { organizationName?: string; submittedOnBehalfOfDisplayName?: string | null };
  applicant: Applicant;
  recipient: RequestRecipient;
  content: RequestContent;
  tags: TagValues;
  submittedAt: string;
  submittedBy: string | null;
  submittedByDisplayName: string | null;
  issuedAt?: string | undefined;
  issueMethod?: IssueRequestMethod | undefined;
  closedAt?: string | undefined;
  closedBy?: string | undefined;
  lastUpdatedAt: string;
  lastUpdatedBy: string | null;
  lastActivityAt: string;
  version: number;
  kpi: RequestKpi;
}

export interface RequestHistoryEntry {
  id: string;
  at: string;
  actorDisplayName: string | null;
  type: string;
  summary: string;
  changes?: Record<string, { from: unknown; to: unknown }> | undefined;
  /** For payments: how the actor's session was authenticated (issue 35). */
  authenticatedBy?: AuthMethod;
}

/** GET /requests/{n}/preview: the hover preview of a request in a list. */
export interface RequestPreview {
  request: {
    requestNumber: string;
    status: RequestStatus;
    /** "Acme Legal, ref. AC-1 (on behalf of Sam Submitter)". */
    senderSummary: string;
    applicant: { name: string; dateOfBirth?: string | null; reference1?: string | null };
    recipient: { name: string; phone?: string | null; email?: string | null };
    /** The item type names and additional instructions, shortened. */
    contentSummary: string;
    submittedAt: string;
    lastActivityAt: string;
  };
  mostRecentCorrespondence: {
    kind: 'note' | 'issuedRequest' | 'message';
    createdAt: string;
    createdByDisplayName: string | null;
    subject: string | null;
    excerpt: string;
  } | null;
}
