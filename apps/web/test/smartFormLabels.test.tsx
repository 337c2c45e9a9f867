import { ANSWER_TYPES, type WizardQuestion } from '@dossier/core';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SmartFormQuestions } from '../src/ui/content/SmartFormQuestions';

// An answer input of the wizard's smart form had no name for a screen reader: the question's text
// stood beside it as a paragraph (axe: "Form elements must have labels"). Each input is now named by
// the question's text through aria-labelledby.

const question = (answerType: string): WizardQuestion => ({
  id: 'q1',
  name: `How many years (${answerType})?`,
  answerType,
  options: [{ id: 'o1', name: 'One' }],
  nestedForm: [],
});

/** The answer controls of the markup: inputs and text areas other than the Exclude checkbox, and radio groups. */
function controls(html: string): string[] {
  const tags = html.match(/<(input|textarea)\b[^>]*>|<[a-z]+\b[^>]*role="radiogroup"[^>]*>/g) ?? [];
  return tags.filter((tag) => !/type="(checkbox|hidden|radio)"/.test(tag));
}

describe('the smart form of the wizard', () => {
  for (const answerType of ANSWER_TYPES) {
    it(`names the ${answerType} answer by its question`, () => {
      const q = question(answerType);
      const html = renderToStaticMarkup(
        <MantineProvider>
          <SmartFormQuestions
            questions={[q]}
            answers={{}}
            excluded={[]}
            onAnswer={() => {}}
            onExclude={() => {}}
            testId="item-dental"
          />
        </MantineProvider>,
      );
      const found = controls(html);
      expect(found.length).toBeGreaterThan(0);
      for (const tag of found) {
        const id = /aria-labelledby="([^"]+)"/.exec(tag)?.[1];
        expect(id, tag).toBeDefined();
        const name = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
        expect(name).toBe(q.name);
      }
    });
  }
});
