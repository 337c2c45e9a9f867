import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { Extension } from '@tiptap/react';

// Mentions are stored in the text as `@[Name](userId)` (core requests/mentions.ts). In an editor
// people see "@Name" as a chip: the markup around the name is hidden by decorations, so the stored
// text stays exactly what the server reads while nobody has to read or type the markup.

const TOKEN = /@\[([^\]\n]{1,200})\]\(([^)\s]{1,100})\)/g;
const CHIP =
  'color: var(--mantine-color-blue-8); background: var(--mantine-color-blue-0); border-radius: 4px; padding: 0 3px;';
const HIDDEN = 'display: none;';

/** The decorations of one text: a chip over each token, with its brackets and user id hidden. */
export function mentionDecorations(text: string, offset: number): Decoration[] {
  const decorations: Decoration[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const from = offset + (m.index ?? 0);
    const nameFrom = from + 2;
    const nameTo = nameFrom + (m[1] ?? '').length;
    const to = from + m[0].length;
    decorations.push(
      Decoration.inline(from, to, {
        style: CHIP,
        class: 'mention-chip',
        'data-testid': 'mention-token',
        'data-user-id': m[2],
      }),
      Decoration.inline(from + 1, nameFrom, { style: HIDDEN }),
      Decoration.inline(nameTo, to, { style: HIDDEN }),
    );
  }
  return decorations;
}

const key = new PluginKey('mentionChips');

export const MentionChips = Extension.create({
  name: 'mentionChips',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key,
        props: {
          decorations(state) {
            const decorations: Decoration[] = [];
            state.doc.descendants((node, pos) => {
              if (node.isText && node.text) decorations.push(...mentionDecorations(node.text, pos));
            });
            return DecorationSet.create(state.doc, decorations);
          },
        },
      }),
    ];
  },
});
