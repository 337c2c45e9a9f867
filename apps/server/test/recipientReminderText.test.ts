import { richTextFromParagraphs } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { reminderLinkSentence, withReminderLink } from '../src/features/recipientAccess/reminder.js';
import { richTextToText } from '../src/mail/richText.js';

// Issue 34: what a reminder template becomes for the link it may carry, before it is rendered.

const link = {
  kind: 'link' as const,
  accessId: 'a',
  url: 'https://dossier.example/r/tok',
  passcode: 'ABCD2345',
};
const text = (doc: Parameters<typeof richTextToText>[0]) => richTextToText(doc).trim();

describe('a reminder template and the link', () => {
  it('keeps a template that places the link; one that does not gets a closing line without the passcode', () => {
    const placing = richTextFromParagraphs(
      'Dear X,',
      'Answer at ${request.recipientAccess.url link "our page"}.',
    );
    expect(withReminderLink(placing, link)).toEqual(placing);
    const silent = richTextFromParagraphs('Dear X,', 'Please reply.');
    const closed = text(withReminderLink(silent, link));
    expect(closed).toContain('You can answer online: https://dossier.example/r/tok');
    expect(closed).toContain('the passcode is sent to you in a separate mail');
    expect(closed).not.toContain(link.passcode);
    expect(reminderLinkSentence(link)).not.toContain(link.passcode);
  });

  it('replaces the paragraphs placing a link that no longer works by one sentence', () => {
    const doc = richTextFromParagraphs(
      'Dear X,',
      'Open ${request.recipientAccess.url}.',
      'Still waiting.',
      'Your passcode: ${request.recipientAccess.passcode}.',
    );
    expect(text(withReminderLink(doc, { kind: 'none' })).split(/\n+/)).toEqual([
      'Dear X,',
      'Please reply quoting the request number.',
      'Still waiting.',
    ]);
    expect(text(withReminderLink(doc, { kind: 'notPrintable' }))).toContain(
      'You can answer online with the link and passcode of our request.',
    );
    // A template that does not place the link is left as written.
    const silent = richTextFromParagraphs('Dear X,', 'Please reply.');
    expect(withReminderLink(silent, { kind: 'none' })).toEqual(silent);
  });
});
