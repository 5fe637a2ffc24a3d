// The `attributes` part of a submission (upload/attributes.ts): a JSON text from
// the client. Either attributes that hold only checked members, or an
// `invalid_request` HttpError whose message renders in every language.
import fc from 'fast-check';
import { parseAttributes } from '../../../electron/local-service/upload/attributes.ts';
import { sanitizeFileName } from '../../../electron/local-service/upload/file-name.ts';
import { HttpError } from '../../../electron/local-service/http/http-error.ts';
import { render } from '../../../electron/local-service/messages/catalogue.ts';
import { EXTERNAL_REFERENCE_MAX_LENGTH, EXTERNAL_REFERENCE_PATTERN } from '../../../shared/service-contract/limits.ts';
import { expectThat, FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue, hostileString, trickyString } from './support/strings.ts';

const reference = fc.oneof(hostileString(255), fc.stringMatching(/^[A-Za-z0-9._:/#@-]{1,260}$/));

const attributesObject = fc.record(
  { file_name: fc.oneof(hostileString(255), anyJsonValue), external_reference_id: fc.oneof(reference, anyJsonValue), other: anyJsonValue },
  { requiredKeys: [] },
);

const nested = fc.tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom('[', '{"a":'), trickyString(2)).map(([depth, open, inner]) => {
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(depth)}${JSON.stringify(inner)}${close.repeat(depth)}`;
});

export const attributesText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: attributesObject.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: anyJsonValue.map((value) => JSON.stringify(value) ?? '') },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: attributesObject.chain((value) => fc.nat().map((cut) => JSON.stringify(value).slice(0, cut % 60))) },
);

const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

/** What a correct parser must accept: an object of depth ≤ 8 whose known members are valid. */
function acceptable(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depthOf(value) > 8) return false;
  const { file_name: name, external_reference_id: ref } = value as Record<string, unknown>;
  const nameOk = name === undefined || (typeof name === 'string' && sanitizeFileName(name) !== null);
  const refOk = ref === undefined || (typeof ref === 'string' && ref.length <= EXTERNAL_REFERENCE_MAX_LENGTH && EXTERNAL_REFERENCE_PATTERN.test(ref));
  return nameOk && refOk;
}

export const attributesTarget: FuzzTarget<string> = {
  name: 'attributes',
  about: 'parseAttributes: checked attributes or an invalid_request error, never anything else',
  smoke: { runs: 3000 },
  async: false,
  async open() {
    return {
      arbitrary: attributesText,
      check(text) {
        let parsed: ReturnType<typeof parseAttributes>;
        try {
          parsed = parseAttributes(text);
        } catch (error) {
          if (!(error instanceof HttpError) || error.code !== 'invalid_request') throw new FuzzFinding(`not an invalid_request: ${String(error)}`, { cause: error });
          for (const language of ['en', 'de'] as const) expectThat(render(error.detail, language).length > 0, `empty ${language} message`);
          expectThat(!acceptable(text), () => `valid attributes refused (${error.detail.key})`);
          return;
        }
        expectThat(acceptable(text), 'invalid attributes accepted');
        expectThat(Object.keys(parsed).every((key) => key === 'file_name' || key === 'external_reference_id'), 'unknown member passed on');
        if (parsed.file_name !== undefined) expectThat(sanitizeFileName(parsed.file_name) === parsed.file_name, 'file name not sanitised');
        if (parsed.external_reference_id !== undefined) expectThat(EXTERNAL_REFERENCE_PATTERN.test(parsed.external_reference_id), 'bad reference passed on');
      },
      close: async () => {},
    };
  },
};
