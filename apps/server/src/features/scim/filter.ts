import { type Filter, parse } from 'scim2-parse-filter';
import { invalidFilter } from './errors.js';

// SCIM filters (RFC 7644 §3.4.2.2) parsed by scim2-parse-filter, then narrowed to what Dossier
// answers from its indexes: `eq` on the attributes a provider looks a resource up by, joined by
// `and` and `or`. Anything else is refused with invalidFilter rather than answered wrongly.

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:user:';
const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:group:';

/** Attribute names as written in filters (lowercase, schema prefix removed) → the caller's names. */
export type AttributeMap<A extends string> = Record<string, A>;

export interface Condition<A extends string> {
  attribute: A;
  value: string;
}

const MAX_FILTER_LENGTH = 1000;
const MAX_CONDITIONS = 50;

/**
 * The filter as alternatives, each a list of conditions that must all hold (disjunctive normal
 * form); an absent filter is no alternative at all (everything matches).
 */
export function parseFilter<A extends string>(
  text: string | undefined,
  attributes: AttributeMap<A>,
): Condition<A>[][] {
  if (text === undefined || text.trim() === '') return [];
  if (text.length > MAX_FILTER_LENGTH)
    throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (error) {
    throw invalidFilter(`The filter cannot be read: ${(error as Error).message}`);
  }
  const alternatives = toAlternatives(ast, attributes);
  if (alternatives.reduce((n, a) => n + a.length, 0) > MAX_CONDITIONS)
    throw invalidFilter(`A filter may hold at most ${MAX_CONDITIONS} conditions.`);
  return alternatives;
}

function toAlternatives<A extends string>(f: Filter, attributes: AttributeMap<A>): Condition<A>[][] {
  switch (f.op) {
    case 'and': {
      const parts = (f as { filters: Filter[] }).filters.map((x) => toAlternatives(x, attributes));
      return parts.reduce<Condition<A>[][]>(
        (acc, alts) => {
          // Bounded as it grows: (a or b) and (c or d) and … doubles at every step.
          if (acc.length * alts.length > MAX_CONDITIONS)
            throw invalidFilter(`A filter may hold at most ${MAX_CONDITIONS} conditions.`);
          return acc.flatMap((a) => alts.map((b) => [...a, ...b]));
        },
        [[]],
      );
    }
    case 'or':
      return (f as { filters: Filter[] }).filters.flatMap((x) => toAlternatives(x, attributes));
    case 'eq': {
      const { attrPath, compValue } = f as { attrPath: string; compValue: unknown };
      const name = attrPath.toLowerCase().replace(CORE_USER, '').replace(CORE_GROUP, '');
      const attribute = attributes[name];
      if (!attribute)
        throw invalidFilter(
          `Filtering on ${attrPath} is not supported; use ${Object.keys(attributes).join(', ')} with eq.`,
        );
      if (typeof compValue !== 'string') throw invalidFilter(`${attrPath} is compared with a string.`);
      return [[{ attribute, value: compValue }]];
    }
    case '[]': {
      // emails[value eq "x"] is the same question as emails.value eq "x".
      const { attrPath, valFilter } = f as { attrPath: string; valFilter: Filter };
      if (valFilter.op !== 'eq') throw invalidFilter('Only eq is supported inside [ ].');
      const inner = valFilter as { attrPath: string; compValue: unknown };
      return toAlternatives(
        { ...inner, op: 'eq', attrPath: `${attrPath}.${inner.attrPath}` } as Filter,
        attributes,
      );
    }
    default:
      throw invalidFilter(`The operator ${f.op} is not supported; use eq, and, or.`);
  }
}

export const USER_FILTER_ATTRIBUTES: AttributeMap<'userName' | 'externalId' | 'email' | 'id'> = {
  username: 'userName',
  externalid: 'externalId',
  'emails.value': 'email',
  emails: 'email',
  id: 'id',
};

export const GROUP_FILTER_ATTRIBUTES: AttributeMap<'displayName' | 'externalId' | 'id'> = {
  displayname: 'displayName',
  externalid: 'externalId',
  id: 'id',
};
