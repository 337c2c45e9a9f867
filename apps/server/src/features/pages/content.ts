import { type RichTextDoc, richTextFromParagraphs } from '@dossier/core';

// The built-in bodies of the Contact Us and Help pages. The configuration (templates of usage
// contactUsPage and helpAndSupportPage) replaces them once an administrator has written its own.
export const DEFAULT_PAGE_BODIES: Record<'contact' | 'help', RichTextDoc> = {
  contact: {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'For help with a request, write to ' },
          {
            type: 'text',
            text: 'support@dossier.example',
            marks: [{ type: 'link', attrs: { href: 'mailto:support@dossier.example' } }],
          },
          { type: 'text', text: ' and quote the request number.' },
        ],
      },
    ],
  },
  help: richTextFromParagraphs(
    'Use the menu to submit and find requests, work your inbox and your assigned tasks.',
    'The bell shows notifications about requests you follow; the task list shows work assigned to you.',
  ),
};
