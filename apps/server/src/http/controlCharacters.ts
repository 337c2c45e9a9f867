import { CONTROL_CHARACTER_MESSAGE, FORM_ERROR_KEY, hasControlCharacter } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { FIELDS_INVALID, HttpError } from './errors.js';

// No text the app stores or searches may hold U+0000 (PostgreSQL refuses it in text) or another
// C0 control character other than tab, line feed and carriage return (no keyboard types them; they
// only come from tampering or broken clients). Every string of the query, the path parameters and
// a parsed body is checked once, before validation and long before any SQL, and the first
// offending one is named as a field error. The rule is core's (hasControlCharacter); fields of one
// line (a mail subject, an external reference) apply its single-line form where they are checked.

/** True when `text` has a C0 control character other than tab, LF and CR. */
export function hasForbiddenControl(text: string): boolean {
  return hasControlCharacter(text);
}

/**
 * The path (as ['items', '0', 'name']) of the first string, or object key, holding a forbidden
 * control character, in document order; undefined when there is none. Iterative, so a deeply
 * nested body cannot overflow the stack.
 */
export function findControlCharacter(value: unknown): string[] | undefined {
  // Each node points at its parent, so no path is copied until one is found: a body nested a
  // hundred thousand deep costs linear time, not quadratic.
  interface Node {
    value: unknown;
    key: string;
    parent: Node | undefined;
  }
  const pathOf = (node: Node | undefined, last?: string): string[] => {
    const path = last === undefined ? [] : [last];
    for (let at = node; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Node[] = [{ value, key: '', parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (typeof current === 'string') {
      if (hasForbiddenControl(current)) return pathOf(node);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    // A raw upload (a stream) or bytes are not text; the query parser's objects have their own
    // prototype, so plain-object-ness cannot be asked.
    if (ArrayBuffer.isView(current) || typeof (current as { pipe?: unknown }).pipe === 'function') continue;
    const children: Node[] = [];
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++)
        children.push({ value: current[i], key: String(i), parent: node });
    } else {
      for (const [key, item] of Object.entries(current)) {
        if (hasForbiddenControl(key)) return pathOf(node, printable(key));
        children.push({ value: item, key, parent: node });
      }
    }
    // Reversed onto the stack, so the first child is looked at first.
    for (const child of children.toReversed()) stack.push(child);
  }
  return undefined;
}

function printable(key: string): string {
  let out = '';
  for (const ch of key) out += hasForbiddenControl(ch) ? '\uFFFD' : ch;
  return out;
}

/** A preValidation hook on every route: 400 `{ fields: { <path>: message } }` for such input. */
export function installControlCharacterGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findControlCharacter(part);
      if (!path) continue;
      const field = path.join('.') || FORM_ERROR_KEY;
      throw new HttpError(400, FIELDS_INVALID, 'validation', {
        [field]: CONTROL_CHARACTER_MESSAGE,
      });
    }
  });
}
