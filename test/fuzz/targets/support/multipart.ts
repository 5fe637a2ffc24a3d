// Multipart submissions as an outside client might write them: the parts a
// valid request has, parts with every way of naming (or not naming) them, and
// byte-level damage on top. Inputs are plain data; the bytes are built from them.
import fc from 'fast-check';
import { attributesText } from '../attributes.ts';
import { hostileString } from './strings.ts';

export interface MultipartPart {
  disposition: string | null;
  contentType: string | null;
  content: string;
}

export interface MultipartInput {
  mode: 'sync' | 'async';
  boundary: string;
  /** The request's Content-Type, `{b}` standing for the boundary. */
  contentType: string;
  parts: MultipartPart[];
  /** What follows the parts, `{b}` standing for the boundary. */
  closing: string;
  /** Byte damage: at a fraction of the body, overwrite, insert or delete. */
  damage: Array<{ op: 'set' | 'insert' | 'delete'; at: number; text: string }>;
  chunked: boolean;
  expectContinue: boolean;
}

let references = 0;
/** A fresh reference most of the time, so a valid submission is not refused as a duplicate. */
const freshAttributes = fc.constant(null).map(() => JSON.stringify({ external_reference_id: `fuzz-${++references}` }));

const NAMES = ['name="file"', 'name="attributes"', 'name=file', 'name=""', "name*=UTF-8''file", "name*=utf-8''attributes", 'name="fi\\"le"', 'NAME="file"', 'name="file"; name="attributes"', 'name'];
const FILENAMES = ['filename="x.txt"', 'filename=""', "filename*=UTF-8''%E2%82%AC.txt", 'filename="../../etc/passwd"', 'filename="a\\b.txt"', 'filename="\u202eexe.txt"', 'filename="x.txt"; filename*=UTF-8\'\'y.txt', 'filename'];

const disposition: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 8, arbitrary: fc
    .tuple(
      fc.constantFrom('form-data', 'form-data', 'attachment', '', 'FORM-DATA', 'form-data '),
      fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAMES) }, hostileString(101).map((text) => `name="${text}"`))),
      fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FILENAMES) }, hostileString(256).map((text) => `filename="${text}"`))),
      fc.option(hostileString()),
    )
    .map(([type, name, filename, extra]) => [type, name, filename, extra].filter((piece) => piece !== null).join('; ')) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const randomPart: fc.Arbitrary<MultipartPart> = fc.record({
  disposition,
  contentType: fc.option(fc.oneof(fc.constantFrom('application/octet-stream', 'application/json', 'text/plain; charset=utf-8', 'multipart/mixed; boundary=x'), hostileString())),
  content: fc.oneof(attributesText, freshAttributes, fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('', 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*')),
});

const fileContent = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom('', 'hi', 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', '%PDF-1.7\n'));
const validFile = fileContent.map((content): MultipartPart => ({ disposition: 'form-data; name="file"; filename="upload.bin"', contentType: 'application/octet-stream', content }));
const validAttributes = freshAttributes.map((content): MultipartPart => ({ disposition: 'form-data; name="attributes"', contentType: 'application/json', content }));

export const multipartInput: fc.Arbitrary<MultipartInput> = fc.record({
  mode: fc.constantFrom('async', 'async', 'sync'),
  boundary: fc.constantFrom('b', 'verdict-fuzz-boundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a'.repeat(70), "'()+_,-./:=?"),
  contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('multipart/form-data; boundary={b}') }, fc.constantFrom('multipart/form-data; boundary="{b}"', 'multipart/form-data; charset=utf-8; boundary={b}', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=other', 'text/plain', 'MULTIPART/FORM-DATA; BOUNDARY={b}')),
  parts: fc.oneof(
    { weight: 4, arbitrary: fc.tuple(validFile, validAttributes, fc.array(randomPart, { maxLength: 2 }), fc.boolean()).map(([file, attributes, more, swap]) => (swap ? [attributes, file, ...more] : [file, attributes, ...more])) },
    { weight: 4, arbitrary: fc.tuple(randomPart, validAttributes, fc.array(randomPart, { maxLength: 2 })).map(([part, attributes, more]) => [part, attributes, ...more]) },
    { weight: 2, arbitrary: fc.array(randomPart, { maxLength: 7 }) },
  ),
  closing: fc.oneof({ weight: 8, arbitrary: fc.constant('--{b}--\r\n') }, fc.constantFrom('', '--{b}--', '--{b}', '--{b}\r\n', '--{b}--\r\nepilogue', '{b}--\r\n')),
  damage: fc.oneof(
    { weight: 3, arbitrary: fc.constant<MultipartInput['damage']>([]) },
    { weight: 1, arbitrary: fc.array(fc.record({ op: fc.constantFrom('set', 'insert', 'delete'), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.oneof(fc.constantFrom('\r\n', '\r\n\r\n', '--', '"', ';', '\0', 'x'), hostileString()) }), { minLength: 1, maxLength: 3 }) },
  ),
  chunked: fc.boolean(),
  expectContinue: fc.boolean(),
});

export function multipartBody(input: MultipartInput): Buffer {
  const b = input.boundary;
  const pieces: Buffer[] = input.parts.map((part) => {
    const headers = [part.disposition === null ? null : `Content-Disposition: ${part.disposition}`, part.contentType === null ? null : `Content-Type: ${part.contentType}`].filter((line) => line !== null);
    return Buffer.concat([Buffer.from(`--${b}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'), Buffer.from(part.content, 'latin1'), Buffer.from('\r\n')]);
  });
  let body = Buffer.concat([...pieces, Buffer.from(input.closing.replaceAll('{b}', b), 'utf8')]);
  for (const change of input.damage) {
    const at = Math.floor(change.at * body.length);
    const text = Buffer.from(change.text, 'utf8');
    if (change.op === 'set') body = Buffer.concat([body.subarray(0, at), text, body.subarray(Math.min(body.length, at + text.length))]);
    else if (change.op === 'insert') body = Buffer.concat([body.subarray(0, at), text, body.subarray(at)]);
    else body = Buffer.concat([body.subarray(0, at), body.subarray(Math.min(body.length, at + Math.max(1, text.length)))]);
  }
  return body;
}
