// Template placeholders: a dollar sign and braces around a lowercase-first
// dotted or colon-separated path, optionally followed by one operation:
//   ${request.requestNumber}                       the value as text
//   ${request.submittedAt date}  ${task.dueAt date-time}  ${invoice.amount number}
//   ${task.type enum workflowTaskType}             the label of an enumeration value
//   ${task.assignedTo name}                        the display name of a user or organisation
//   ${result.url link}  ${result.url link "open"}  a link, with optional text
//   ${request.notes content}                       rich text content, as plain text
//   ${request.items list name}                     a list, the named field of each, comma-separated
//   ${request.items for-each item} ... ${end}      repeats the part up to ${end} per element
//   ${request.notes if-empty} ... ${end}           shows the part up to ${end} only when empty

export const PLACEHOLDER_OPERATIONS = [
  'if-empty',
  'for-each',
  'name',
  'enum',
  'number',
  'date',
  'date-time',
  'content',
  'link',
  'list',
] as const;
export type PlaceholderOperation = (typeof PLACEHOLDER_OPERATIONS)[number];

export interface Placeholder {
  /** Offsets of `${` and one past `}` in the text. */
  start: number;
  end: number;
  source: string;
  path: string;
  operation?: PlaceholderOperation;
  /** for-each variable, enum type, list field, or link text. */
  argument?: string;
}

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'value'; placeholder: Placeholder }
  | { kind: 'block'; placeholder: Placeholder; body: TemplatePart[] };

export interface PlaceholderProblem {
  start: number;
  end: number;
  source: string;
  message: string;
}

const PATH = /^[a-z][a-zA-Z0-9]*(?:[.:][a-z][a-zA-Z0-9]*)*$/;
const WORD = /^[a-z][a-zA-Z0-9]*$/;

/** Reads one placeholder's inside ("path op arg"); answers a problem message when malformed. */
function parseInside(inside: string): Omit<Placeholder, 'start' | 'end' | 'source'> | string {
  const match = /^\s*(\S+)(?:\s+(\S+)(?:\s+(.+?))?)?\s*$/.exec(inside);
  if (!match) return 'Empty placeholder.';
  // The first group always matches when the pattern does.
  const [, path = '', operation, rawArgument] = match;
  if (!PATH.test(path))
    return `"${path}" is not a path: start with a lowercase letter, use letters, digits, dots and colons.`;
  if (operation === undefined) return { path };
  if (!(PLACEHOLDER_OPERATIONS as readonly string[]).includes(operation))
    return `Unknown operation "${operation}".`;
  const op = operation as PlaceholderOperation;
  const needsWord = op === 'for-each' || op === 'enum' || op === 'list';
  if (needsWord) {
    if (!rawArgument || !WORD.test(rawArgument))
      return `"${op}" needs a name after it, such as ${'${'}${path} ${op} item}.`;
    return { path, operation: op, argument: rawArgument };
  }
  if (op === 'link') {
    if (rawArgument === undefined) return { path, operation: op };
    const quoted = /^"([^"]*)"$/.exec(rawArgument);
    if (!quoted) return 'The text of a link goes in double quotes.';
    return { path, operation: op, argument: quoted[1] ?? '' };
  }
  if (rawArgument !== undefined) return `"${op}" takes nothing after it.`;
  return { path, operation: op };
}

/** Splits a template into text, values and blocks; answers the problems found instead when any. */
export function parseTemplate(text: string): { parts: TemplatePart[]; problems: PlaceholderProblem[] } {
  const problems: PlaceholderProblem[] = [];
  const root: TemplatePart[] = [];
  // The root level stays at the bottom: `${end}` never pops it.
  const base: { parts: TemplatePart[]; opener?: Placeholder } = { parts: root };
  const stack = [base];
  let last = 0;
  let at = text.indexOf('${');
  while (at >= 0) {
    const close = text.indexOf('}', at + 2);
    const nextOpen = text.indexOf('${', at + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      const end = nextOpen >= 0 ? nextOpen : text.length;
      problems.push({
        start: at,
        end,
        source: text.slice(at, end),
        message: 'The placeholder is not closed with }.',
      });
      at = nextOpen;
      continue;
    }
    const top = stack.at(-1) ?? base;
    if (at > last) top.parts.push({ kind: 'text', text: text.slice(last, at) });
    const source = text.slice(at, close + 1);
    const inside = text.slice(at + 2, close);
    last = close + 1;
    if (inside.trim() === 'end') {
      if (stack.length === 1)
        problems.push({ start: at, end: last, source, message: '${end} without a for-each or if-empty.' });
      else stack.pop();
    } else {
      const parsed = parseInside(inside);
      if (typeof parsed === 'string') problems.push({ start: at, end: last, source, message: parsed });
      else {
        const placeholder: Placeholder = { start: at, end: last, source, ...parsed };
        if (parsed.operation === 'for-each' || parsed.operation === 'if-empty') {
          const block: TemplatePart = { kind: 'block', placeholder, body: [] };
          top.parts.push(block);
          stack.push({ parts: block.body, opener: placeholder });
        } else top.parts.push({ kind: 'value', placeholder });
      }
    }
    at = text.indexOf('${', last);
  }
  if (last < text.length) (stack.at(-1) ?? base).parts.push({ kind: 'text', text: text.slice(last) });
  for (const open of stack.slice(1)) {
    const p = open.opener!;
    problems.push({
      start: p.start,
      end: p.end,
      source: p.source,
      message: `${p.source} has no matching \${end}.`,
    });
  }
  return { parts: root, problems };
}

/** Describes the data a template may use: a field is a leaf (true) or nested fields; [x] a list. */
export type PathSchema = { [field: string]: true | PathSchema | [PathSchema] };

const user: PathSchema = {
  id: true,
  name: true,
  email: true,
  phone: true,
  activationUrl: true,
  resetPasswordUrl: true,
};
const organisation: PathSchema = { name: true, scopePath: true, legalEntity: true, email: true };
/** The data templates are rendered over: request, task, result, invoice and user. */
export const TEMPLATE_DATA_SCHEMA: PathSchema = {
  product: true,
  now: true,
  request: {
    requestNumber: true,
    status: true,
    url: true,
    /**
     * The recipient's page (issue 34): its link, and its passcode (by email: where it was sent), in
     * the letter of an issue and in the autoReminder (the link while it works; the passcode is then
     * "sent to you in a separate mail"). No other mail carries them.
     */
    recipientAccess: { url: true, passcode: true },
    submittedAt: true,
    issuedAt: true,
    closedAt: true,
    dueAt: true,
    externalReference: true,
    notes: true,
    sender: organisation,
    recipient: { ...organisation, phone: true, fax: true, address: true },
    applicant: {
      name: true,
      dateOfBirth: true,
      address: true,
      country: true,
      reference1: true,
      reference1Type: true,
      reference2: true,
      reference2Type: true,
    },
    items: [{ id: true, name: true, type: true }],
    submittedBy: user,
  },
  task: {
    taskId: true,
    type: true,
    subject: true,
    notice: true,
    dueAt: true,
    url: true,
    assignedTo: true,
    completedAt: true,
  },
  result: { fileName: true, classification: true, url: true, addedAt: true, size: true },
  invoice: { number: true, amount: true, currency: true, payee: true, paidAt: true },
  user,
};

function lookupSchema(schema: PathSchema, path: string): true | PathSchema | [PathSchema] | undefined {
  let node: true | PathSchema | [PathSchema] | undefined = schema;
  for (const segment of path.split(/[.:]/)) {
    if (node === true || node === undefined) return undefined;
    const fields: PathSchema = Array.isArray(node) ? node[0] : node;
    if (!Object.hasOwn(fields, segment)) return undefined;
    node = fields[segment];
  }
  return node;
}

/** Every problem of a template: malformed placeholders and paths the data does not have. */
export function checkTemplate(text: string, schema: PathSchema = TEMPLATE_DATA_SCHEMA): PlaceholderProblem[] {
  const { parts, problems } = parseTemplate(text);
  const visit = (list: TemplatePart[], scope: PathSchema) => {
    for (const part of list) {
      if (part.kind === 'text') continue;
      const p = part.placeholder;
      const node = lookupSchema(scope, p.path);
      if (node === undefined) {
        problems.push({
          start: p.start,
          end: p.end,
          source: p.source,
          message: `Unknown placeholder path "${p.path}".`,
        });
        continue;
      }
      if ((p.operation === 'for-each' || p.operation === 'list') && !Array.isArray(node)) {
        problems.push({
          start: p.start,
          end: p.end,
          source: p.source,
          message: `"${p.path}" is not a list.`,
        });
        continue;
      }
      if (p.operation === 'list' && Array.isArray(node) && !Object.hasOwn(node[0], p.argument ?? '')) {
        problems.push({
          start: p.start,
          end: p.end,
          source: p.source,
          message: `The list has no field "${p.argument}".`,
        });
      }
      if (part.kind === 'block') {
        const inner =
          p.operation === 'for-each' && Array.isArray(node)
            ? { ...scope, [p.argument ?? 'item']: node[0] }
            : scope;
        visit(part.body, inner);
      }
    }
  };
  visit(parts, schema);
  return problems.sort((a, b) => a.start - b.start);
}

/** Every text of a rich text document, joined per block, for checking its placeholders. */
export function richTextTexts(doc: unknown): string[] {
  const texts: string[] = [];
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; text?: string; content?: unknown[] };
    if (n.type === 'paragraph' || n.type === 'heading') {
      texts.push((n.content ?? []).map((c) => (c as { text?: string }).text ?? '').join(''));
      return;
    }
    for (const child of n.content ?? []) visit(child);
  };
  visit(doc);
  return texts;
}
