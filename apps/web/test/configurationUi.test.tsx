import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { LinkifiedText } from '../src/ui/LinkifiedText';
import { editableDoc } from '../src/ui/RichTextEditor';

describe('linkified text', () => {
  it('links https URLs and e-mail addresses only', () => {
    const html = renderToStaticMarkup(
      <LinkifiedText text="See https://x.example/a or me@x.example, not http://y.example" />,
    );
    expect(html).toContain(
      '<a href="https://x.example/a" target="_blank" rel="noopener noreferrer">https://x.example/a</a>',
    );
    expect(html).toContain('<a href="mailto:me@x.example"');
    expect(html).not.toContain('href="http://y.example"');
  });
});

describe('rich text editor content', () => {
  it('treats unparseable content as empty and logs it', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(editableDoc('not json')).toEqual({ type: 'doc', content: [] });
    expect(log).toHaveBeenCalledTimes(1);
    expect(editableDoc(undefined)).toEqual({ type: 'doc', content: [] });
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });
  it('sanitizes what it is given', () => {
    const doc = editableDoc({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
          ],
        },
      ],
    });
    expect(JSON.stringify(doc)).toContain('about:blank');
  });
});
