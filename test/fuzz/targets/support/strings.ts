// Strings an outside party might send: any code units (lone surrogates
// included), the characters parsers split on, and lengths around the limits.
import fc from 'fast-check';

const TRICKY = [
  '', ' ', '\0', '\r\n', '\n', '\t', '"', "'", '\\', '/', '..', '.', '%', '%%', '%0', '%ZZ', '%2F', '%00', '%ED%A0%80', '%C0%AF',
  '\ud800', '\udfff', '\u202e', '\u061c', '\ufeff', '\u200b', '€', '😀', 'null', 'true', '0', '-1', '1e400', 'NaN', '__proto__',
  'constructor', '{', '}', '[', ']', '{}', '[]', ';', '=', '*', "UTF-8''", 'whsec_', '--', '-', '=\r\n',
];

/** Short strings built from parser-relevant pieces and random code units. */
export const trickyString = (maxPieces = 8): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TRICKY) }, fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 })), {
      maxLength: maxPieces,
    })
    .map((pieces) => pieces.join(''));

/** Any string, weighted towards tricky ones, now and then of a length near `limit`. */
export const hostileString = (limit = 300): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: trickyString() },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '/', '%41', '\u202e'), fc.integer({ min: limit - 3, max: limit + 3 })).map(([c, n]) => c.repeat(Math.max(0, n))) },
  );

/** JSON values of any shape, strings included from hostileString. */
export const anyJsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileString(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString(), tie('value'), { maxKeys: 4 }),
  ),
})).value;
