import fc from 'fast-check';

// Hostile values for fuzzing: what attackers and broken clients send. Strings end up in paths,
// query strings and JSON bodies; the other shapes only in bodies.

export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\u0001\u0002\u001f\u007f',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  '\u200B\u200D\uFEFF',
  '../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' or 1=1 --",
  "$`$&$'",
  '{{constructor.constructor("alert(1)")()}}',
  '\r\nX-Injected: 1',
  '=HYPERLINK("http://evil.example")',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31T99:99:99Z',
  '-1',
  '0',
  '-0',
  '1e308',
  '9007199254740993',
  '-9007199254740993',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '💥🏳️‍🌈',
  'x'.repeat(5_000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant('y'.repeat(500_000)) },
);

const deep = (depth: number, inner: unknown): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      2 ** 53,
      -(2 ** 53),
      1e308,
      -1e-308,
      0.1,
      [],
      {},
      [null],
      { __proto__: { admin: true } },
      { constructor: { prototype: { admin: true } } },
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((d) => deep(d, 'x')) },
  { weight: 1, arbitrary: fc.array(hostileStringLite(), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileStringLite(), hostileStringLite(), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

function hostileStringLite(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...NASTY_STRINGS.slice(0, -1)),
    fc.string({ unit: 'binary', maxLength: 10 }),
  );
}

/** A path or query value as sent on the wire: percent-encoded, or raw invalid UTF-8 when it cannot be. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `%ED%A0%80${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))}`;
  }
}
