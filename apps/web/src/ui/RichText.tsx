import {
  isUnparseableRichText,
  type RichTextMark,
  type RichTextNode,
  safeHref,
  sanitizeRichText,
  splitMentions,
} from '@dossier/core';
import type { ReactNode } from 'react';

// Renders a TipTap JSON document as React elements, after the shared sanitizer, without
// dangerouslySetInnerHTML. Links and images go through safeHref (javascript: -> about:blank).

function isExternal(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href);
}

function applyMark(mark: RichTextMark, child: ReactNode, key: number): ReactNode {
  switch (mark.type) {
    case 'bold':
      return <strong key={key}>{child}</strong>;
    case 'italic':
      return <em key={key}>{child}</em>;
    case 'underline':
      return <u key={key}>{child}</u>;
    case 'link': {
      const href = safeHref(mark.attrs?.href);
      return isExternal(href) ? (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer">
          {child}
        </a>
      ) : (
        <a key={key} href={href}>
          {child}
        </a>
      );
    }
    default:
      return child;
  }
}

/** Note mentions are stored as `@[Name](userId)` tokens; people read them as a highlighted @Name. */
function withMentions(text: string): ReactNode {
  const parts = splitMentions(text);
  if (parts.every((p) => !p.userId)) return text;
  // Parts never reorder; their start offset in the text is a stable key.
  let offset = 0;
  return parts.map((p) => {
    const at = offset;
    offset += p.text.length;
    return p.userId ? (
      <strong key={at} className="mention" data-user-id={p.userId}>
        {p.text}
      </strong>
    ) : (
      p.text
    );
  });
}

function renderText(node: RichTextNode, key: number): ReactNode {
  let out: ReactNode = withMentions(node.text ?? '');
  // The link mark goes outermost so formatting stays inside the anchor.
  const marks = [...(node.marks ?? [])].sort(
    (a, b) => (a.type === 'link' ? 1 : 0) - (b.type === 'link' ? 1 : 0),
  );
  for (const mark of marks) out = applyMark(mark, out, key);
  return marks.length > 0 ? out : <span key={key}>{out}</span>;
}

function renderChildren(node: RichTextNode): ReactNode[] {
  return (node.content ?? []).map((child, index) => renderNode(child, index));
}

function renderNode(node: RichTextNode, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return renderText(node, key);
    case 'hardBreak':
      return <br key={key} />;
    case 'image':
      return <img key={key} src={safeHref(node.attrs?.src)} alt={String(node.attrs?.alt ?? '')} />;
    case 'paragraph':
      return <p key={key}>{renderChildren(node)}</p>;
    case 'heading': {
      const level = Number(node.attrs?.level);
      if (level === 2) return <h2 key={key}>{renderChildren(node)}</h2>;
      if (level === 3) return <h3 key={key}>{renderChildren(node)}</h3>;
      return <h1 key={key}>{renderChildren(node)}</h1>;
    }
    case 'bulletList':
      return <ul key={key}>{renderChildren(node)}</ul>;
    case 'orderedList':
      return <ol key={key}>{renderChildren(node)}</ol>;
    case 'listItem':
      return <li key={key}>{renderChildren(node)}</li>;
    case 'blockquote':
      return <blockquote key={key}>{renderChildren(node)}</blockquote>;
    default:
      return null;
  }
}

export interface RichTextProps {
  /** A rich text document (object or JSON text); anything else renders as empty. */
  doc: unknown;
  'data-testid'?: string;
}

export function RichText({ doc, 'data-testid': testId = 'rich-text' }: RichTextProps) {
  // Unparseable rich text is logged and shown as empty.
  if (doc !== undefined && doc !== null && isUnparseableRichText(doc))
    console.error('Unparseable rich text treated as empty', doc);
  const clean = sanitizeRichText(doc);
  return <div data-testid={testId}>{clean.content.map((node, index) => renderNode(node, index))}</div>;
}
