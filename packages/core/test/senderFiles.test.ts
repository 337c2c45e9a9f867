import { describe, expect, it } from 'vitest';
import {
  type RequestFileUses,
  senderMayReadFile,
  senderSeesCorrespondence,
  senderSeesCorrespondenceContent,
} from '../src/index.js';

// Issue 32 item 1: what the sender side reads of a request's files and correspondence, from every use.

const none: RequestFileUses = {
  invoice: false,
  undeliveredResult: false,
  deliveredResult: false,
  result: false,
  issuedRequest: false,
  attachmentSenderSees: false,
  attachment: false,
  received: false,
};
const uses = (change: Partial<RequestFileUses>): RequestFileUses => ({ ...none, ...change });

describe('senderMayReadFile', () => {
  it('a use that denies wins over any that grants', () => {
    const grants = [
      { result: true, deliveredResult: true },
      { attachment: true, issuedRequest: true },
      { attachment: true, attachmentSenderSees: true },
    ];
    for (const grant of grants) {
      expect(senderMayReadFile(uses(grant))).toBe(true);
      expect(senderMayReadFile(uses({ ...grant, invoice: true }))).toBe(false);
      expect(senderMayReadFile(uses({ ...grant, result: true, undeliveredResult: true }))).toBe(false);
    }
  });

  it('an attachment of a received message not shared grants nothing; the request’s own files do', () => {
    expect(senderMayReadFile(uses({ attachment: true }))).toBe(false);
    expect(senderMayReadFile(none)).toBe(true);
    // A received file whose message was unlinked has no use left, and is still not the request's own.
    expect(senderMayReadFile(uses({ received: true }))).toBe(false);
    expect(senderMayReadFile(uses({ received: true, attachment: true, attachmentSenderSees: true }))).toBe(
      true,
    );
  });
});

describe('correspondence of the sender side', () => {
  it('sees that a received message arrived, its content only once shared, and nothing unverified', () => {
    const message = { kind: 'message', unverifiedSender: false, sharedWithSender: false };
    expect(senderSeesCorrespondence(message)).toBe(true);
    expect(senderSeesCorrespondenceContent(message)).toBe(false);
    expect(senderSeesCorrespondenceContent({ ...message, sharedWithSender: true })).toBe(true);
    expect(senderSeesCorrespondence({ unverifiedSender: true })).toBe(false);
    expect(
      senderSeesCorrespondenceContent({ ...message, unverifiedSender: true, sharedWithSender: true }),
    ).toBe(false);
    for (const kind of ['note', 'issuedRequest'])
      expect(senderSeesCorrespondenceContent({ ...message, kind })).toBe(true);
  });
});
