import { describe, expect, it } from 'vitest';
import { isUnparseableRichText, safeHref, sanitizeRichText } from '../src/index.js';

const link = (href: string) => ({
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href } }] }] },
  ],
});
const hrefOf = (doc: ReturnType<typeof sanitizeRichText>) => {
  const mark = doc.content[0]?.content?.[0]?.marks?.[0];
  return mark?.type === 'link' ? mark.attrs.href : undefined;
};

describe('rich text', () => {
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' java\tscript:alert(1)',
    'vbscript:x',
    'data:text/html,x',
  ])('rewrites %s to about:blank', (href) =>
    expect(hrefOf(sanitizeRichText(link(href)))).toBe('about:blank'),
  );

  it.each(['https://example.com/a', 'mailto:a@b.example', '/requests/ABC'])('keeps %s', (href) =>
    expect(safeHref(href)).toBe(href),
  );

  it('rewrites javascript: image sources', () => {
    const doc = sanitizeRichText({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'image', attrs: { src: 'javascript:x' } }] }],
    });
    expect(doc.content[0]?.content?.[0]?.attrs?.src).toBe('about:blank');
  });

  it('drops unknown nodes and marks, and clamps heading levels to 1-3', () => {
    const doc = sanitizeRichText({
      type: 'doc',
      content: [
        { type: 'script', content: [] },
        {
          type: 'heading',
          attrs: { level: 6, onclick: 'x' },
          content: [{ type: 'text', text: 'T', marks: [{ type: 'strike' }, { type: 'bold' }] }],
        },
      ],
    });
    expect(doc.content).toEqual([
      {
        type: 'heading',
        attrs: { level: 1 },
        content: [{ type: 'text', text: 'T', marks: [{ type: 'bold' }] }],
      },
    ]);
  });

  it('keeps lists nested up to 4 deep and drops deeper ones', () => {
    const nest = (depth: number): object =>
      depth === 0
        ? { type: 'paragraph', content: [{ type: 'text', text: 'leaf' }] }
        : { type: 'bulletList', content: [{ type: 'listItem', content: [nest(depth - 1)] }] };
    expect(JSON.stringify(sanitizeRichText({ type: 'doc', content: [nest(4)] }))).toContain('leaf');
    expect(JSON.stringify(sanitizeRichText({ type: 'doc', content: [nest(5)] }))).not.toContain('leaf');
  });

  it('treats unparseable content as empty', () => {
    expect(sanitizeRichText('{not json')).toEqual({ type: 'doc', content: [] });
    expect(sanitizeRichText(42)).toEqual({ type: 'doc', content: [] });
    expect(isUnparseableRichText('{not json')).toBe(true);
    expect(isUnparseableRichText(JSON.stringify({ type: 'doc', content: [] }))).toBe(false);
  });
});
