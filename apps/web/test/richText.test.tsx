import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RichText } from '../src/ui/RichText';

const render = (doc: unknown) => renderToStaticMarkup(<RichText doc={doc} />);

describe('rich text renderer', () => {
  it('renders blocks, lists and marks', () => {
    const html = render({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'bold', marks: [{ type: 'bold' }] },
            { type: 'hardBreak' },
            {
              type: 'text',
              text: 'link',
              marks: [{ type: 'italic' }, { type: 'link', attrs: { href: 'https://x.test' } }],
            },
          ],
        },
        {
          type: 'orderedList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] },
          ],
        },
        {
          type: 'blockquote',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'q', marks: [{ type: 'underline' }] }] },
          ],
        },
      ],
    });
    expect(html).toContain('<h2><span>Title</span></h2>');
    expect(html).toContain('<strong>bold</strong><br/>');
    expect(html).toContain(
      '<a href="https://x.test" target="_blank" rel="noopener noreferrer"><em>link</em></a>',
    );
    expect(html).toContain('<ol><li><p><span>one</span></p></li></ol>');
    expect(html).toContain('<blockquote><p><u>q</u></p></blockquote>');
  });

  it('rewrites javascript: links and images to about:blank', () => {
    const html = render({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: ' JavaScript:alert(1)' } }] },
            { type: 'image', attrs: { src: 'javascript:alert(2)', alt: 'i' } },
          ],
        },
      ],
    });
    expect(html).not.toMatch(/javascript/i);
    expect(html).toContain('<a href="about:blank">x</a>');
    expect(html).toContain('<img src="about:blank" alt="i"/>');
  });

  it('drops unknown nodes and escapes text', () => {
    const html = render({
      type: 'doc',
      content: [
        { type: 'script', content: [{ type: 'text', text: 'alert(1)' }] },
        { type: 'paragraph', content: [{ type: 'text', text: '<b>not bold</b>' }] },
      ],
    });
    expect(html).toBe('<div data-testid="rich-text"><p><span>&lt;b&gt;not bold&lt;/b&gt;</span></p></div>');
  });

  it('renders nothing for a value that is not a document', () => {
    expect(render('not json')).toBe('<div data-testid="rich-text"></div>');
  });
});
