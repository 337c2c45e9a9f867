import { describe, expect, it } from 'vitest';
import { mentionDecorations } from '../src/ui/mentionChips';
import { itemAt } from './helpers';

// What an editor shows of a note with mentions: "@Name" as a chip, never the stored markup.

type Deco = ReturnType<typeof mentionDecorations>[number] & { type: { attrs: Record<string, string> } };

function shown(text: string): { visible: string; chips: string[] } {
  const decorations = mentionDecorations(text, 0) as Deco[];
  const hidden = decorations.filter((d) => d.type.attrs.style === 'display: none;');
  const isShown = (i: number) => !hidden.some((d) => i >= d.from && i < d.to);
  const visible = [...text].filter((_, i) => isShown(i)).join('');
  const chips = decorations
    .filter((d) => d.type.attrs.class === 'mention-chip')
    .map((d) => [...text.slice(d.from, d.to)].filter((_, i) => isShown(d.from + i)).join(''));
  return { visible, chips };
}

describe('mention chips in the editors', () => {
  it('shows each mention as @Name and hides its markup', () => {
    expect(shown('Ask @[Harper Handler](handler) and @[Sam Submitter](sam) today')).toEqual({
      visible: 'Ask @Harper Handler and @Sam Submitter today',
      chips: ['@Harper Handler', '@Sam Submitter'],
    });
  });

  it('leaves text without mentions, and a plain @word, as it is', () => {
    expect(shown('mail me @ home or @harper')).toEqual({ visible: 'mail me @ home or @harper', chips: [] });
  });

  it('keeps the user id on the chip, for the stored token', () => {
    const chip = itemAt(mentionDecorations('@[Harper Handler](handler)', 1) as Deco[], 0);
    expect(chip.from).toBe(1);
    expect(chip.to).toBe(1 + '@[Harper Handler](handler)'.length);
    expect(chip.type.attrs['data-user-id']).toBe('handler');
  });
});
