// Parses and checks the `attributes` part (spec 2.3). Unknown members are
// ignored; the known ones are validated with reasons the caller can act on.
import { EXTERNAL_REFERENCE_MAX_LENGTH, EXTERNAL_REFERENCE_PATTERN } from '../../../shared/service-contract/limits.ts';
import type { SubmissionAttributes } from '../../../shared/service-contract/scan.ts';
import { HttpError } from '../http/http-error.ts';
import type { Message } from '../messages/catalogue.ts';
import { sanitizeFileName } from './file-name.ts';

export const MAX_ATTRIBUTES_BYTES = 64 * 1024;
export const MAX_ATTRIBUTES_DEPTH = 8;

const invalid = (message: Message) => new HttpError('invalid_request', message);

export function parseAttributes(text: string): SubmissionAttributes {
  if (nestingDepth(text) > MAX_ATTRIBUTES_DEPTH) throw invalid({ key: 'attributesTooDeep', params: { limit: MAX_ATTRIBUTES_DEPTH } });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid({ key: 'attributesNotJson' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid({ key: 'attributesNotObject' });
  const raw = value as Record<string, unknown>;
  const attributes: SubmissionAttributes = {};

  if (raw.file_name !== undefined) {
    if (typeof raw.file_name !== 'string') throw invalid({ key: 'fileNameNotString' });
    const name = sanitizeFileName(raw.file_name);
    if (name === null) throw invalid({ key: 'fileNameInvalid' });
    attributes.file_name = name;
  }

  if (raw.external_reference_id !== undefined) {
    const reference = raw.external_reference_id;
    if (typeof reference !== 'string') throw invalid({ key: 'referenceNotString' });
    if (reference.length === 0) throw invalid({ key: 'referenceEmpty' });
    if (reference.length > EXTERNAL_REFERENCE_MAX_LENGTH) {
      throw invalid({ key: 'referenceTooLong', params: { max: EXTERNAL_REFERENCE_MAX_LENGTH, length: reference.length } });
    }
    if (!EXTERNAL_REFERENCE_PATTERN.test(reference)) throw invalid({ key: 'referenceBadCharacters' });
    attributes.external_reference_id = reference;
  }
  // Verdict's own member (see SubmissionAttributes); anything but `true` leaves the file waiting for ClamAV.
  if (raw.basic_checks_only === true) attributes.basic_checks_only = true;
  return attributes;
}

/** Deepest bracket nesting outside strings, measured before parsing so a hostile document costs nothing. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}
