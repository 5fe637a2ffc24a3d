// Every human-readable text the local service sends (error bodies, failed
// scans), in English and German. The request's Content-Language picks one.
import type { Language } from '../../../shared/service-contract/limits.ts';

const en = {
  // 400 invalid_request
  notMultipart: () => 'The request body must be multipart/form-data with a boundary.',
  malformedMultipart: () => 'The multipart body is malformed and could not be read.',
  missingFilePart: () => 'The "file" part is missing.',
  filePartNotAFile: () => 'The "file" part must be sent as a file (with a filename or as application/octet-stream).',
  secondFilePart: () => 'Only one "file" part is allowed.',
  partWithoutName: () =>
    'A file part has no name. Send the file as the part named "file": Content-Disposition: form-data; name="file"; filename="…".',
  unexpectedFilePart: (p: { name: string }) =>
    `The part "${p.name}" carries a file, but only the part named "file" is scanned: send one file per request, as the part "file".`,
  tooManyParts: () => 'The request has too many parts: send one "file" and one "attributes" part.',
  missingAttributesPart: () => 'The "attributes" part is missing.',
  attributesTooLarge: (p: { limit: number }) => `The "attributes" part is larger than ${p.limit} bytes.`,
  attributesNotJson: () => 'The "attributes" part is not valid JSON.',
  attributesNotObject: () => 'The "attributes" part must be a JSON object.',
  attributesTooDeep: (p: { limit: number }) => `The "attributes" JSON is nested deeper than ${p.limit} levels.`,
  fileNameNotString: () => 'attributes.file_name must be a string.',
  fileNameInvalid: () => 'attributes.file_name is empty or too long (at most 255 characters after removing paths and control characters).',
  missingFileName: () => 'No file name: set attributes.file_name or give the file part a filename.',
  referenceNotString: () => 'attributes.external_reference_id must be a string.',
  referenceEmpty: () => 'attributes.external_reference_id must not be empty.',
  referenceTooLong: (p: { max: number; length: number }) =>
    `attributes.external_reference_id is ${p.length} characters long; at most ${p.max} are allowed.`,
  referenceBadCharacters: () => 'attributes.external_reference_id may contain only letters, digits and . _ : / # @ -',
  // 401, 404, 408, 409, 413, 429, 500
  missingApiKey: () => 'An API key is required: send the header "Authorization: Bearer <API key>".',
  unknownApiKey: () => 'The API key is not valid.',
  routeNotFound: () => 'There is no such endpoint.',
  methodNotAllowed: (p: { method: string; allow: string }) => `${p.method} is not allowed here; this endpoint accepts ${p.allow}.`,
  scanNotFound: () => 'No scan with this id exists for this API key.',
  referenceNotFound: () => 'No scan with this external_reference_id exists for this API key.',
  syncScanTimeout: (p: { seconds: number }) =>
    `The scan did not finish within ${p.seconds} seconds. It continues: look it up with GET /file-scans/{file_scan_id}.`,
  duplicateReference: () => 'This external_reference_id has already been used by this API key.',
  fileTooLarge: (p: { limit: string; bytes: number; mode: 'sync' | 'async' }) =>
    `The file is larger than the ${p.limit} limit (${p.bytes} bytes) for ${p.mode === 'sync' ? 'synchronous' : 'asynchronous'} scans.`,
  rateLimited: (p: { seconds: number }) => `Too many requests. Try again in ${p.seconds} seconds.`,
  internalError: () => 'The service failed to handle the request.',
  // Answers for requests Node's HTTP layer refuses (http/client-error.ts) or lets through malformed (http/request-framing.ts).
  malformedHttp: () => 'The request is not valid HTTP/1.1 (request line, headers, Content-Length or chunked framing) and was not read.',
  requestTimeout: (p: { seconds: number }) =>
    `The request was not received completely within ${p.seconds} seconds. Nothing was scanned; send it again.`,
  headersTooLarge: (p: { limit: string }) => `The request's URL and headers are larger than ${p.limit}.`,
  requestTooLarge: () => 'A chunk extension of the request body is too large.',
  expectationFailed: () => 'Only "Expect: 100-continue" is supported.',
  httpVersionNotSupported: () => 'Only HTTP/1.1 and HTTP/1.0 are supported.',
  badHostHeader: () => 'The request needs exactly one valid Host header (HTTP/1.1, RFC 9112 section 3.2).',
  // error.message of failed scans
  scanFailed: (p: { reason: string; detail: string }) => `The scan could not be completed: ${p.reason}. Engine detail: ${p.detail}`,
  // Reasons by EngineError code (engines/engine.ts); the engine's own detail stays in English.
  engineUnavailable: () => 'the scanning engine is not reachable',
  clamavUnavailable: () =>
    'ClamAV, which scanned files here before, is not available. Start ClamAV (or check that it is installed) and scan the file again, or choose "scan with basic checks only" for it',
  engineTimeout: () => 'the scanning engine did not answer in time',
  engineSizeLimit: () => "the file is larger than the scanning engine's limit",
  engineAborted: () => 'the scan was cancelled',
  fileUnreadable: () => 'the uploaded file could not be read',
  engineFailed: () => 'the scanning engine reported an error',
  scanFailedUnexpectedly: () => 'The scan could not be completed because the engine failed unexpectedly.',
  scanInterrupted: () => 'The service stopped while this scan was running and its upload is gone, so it could not be resumed.',
};

export type MessageKey = keyof typeof en;
type Catalogue = { [K in MessageKey]: (typeof en)[K] };

const de: Catalogue = {
  notMultipart: () => 'Der Anfrageinhalt muss multipart/form-data mit einer Boundary sein.',
  malformedMultipart: () => 'Der Multipart-Inhalt ist fehlerhaft und konnte nicht gelesen werden.',
  missingFilePart: () => 'Der Teil „file“ fehlt.',
  filePartNotAFile: () => 'Der Teil „file“ muss als Datei gesendet werden (mit Dateinamen oder als application/octet-stream).',
  secondFilePart: () => 'Nur ein Teil „file“ ist erlaubt.',
  partWithoutName: () =>
    'Ein Dateiteil hat keinen Namen. Senden Sie die Datei als Teil „file“: Content-Disposition: form-data; name="file"; filename="…".',
  unexpectedFilePart: (p) =>
    `Der Teil „${p.name}“ enthält eine Datei, aber gescannt wird nur der Teil „file“: senden Sie eine Datei pro Anfrage, als Teil „file“.`,
  tooManyParts: () => 'Die Anfrage hat zu viele Teile: senden Sie einen Teil „file“ und einen Teil „attributes“.',
  missingAttributesPart: () => 'Der Teil „attributes“ fehlt.',
  attributesTooLarge: (p) => `Der Teil „attributes“ ist größer als ${p.limit} Bytes.`,
  attributesNotJson: () => 'Der Teil „attributes“ ist kein gültiges JSON.',
  attributesNotObject: () => 'Der Teil „attributes“ muss ein JSON-Objekt sein.',
  attributesTooDeep: (p) => `Das JSON in „attributes“ ist tiefer als ${p.limit} Ebenen verschachtelt.`,
  fileNameNotString: () => 'attributes.file_name muss eine Zeichenkette sein.',
  fileNameInvalid: () => 'attributes.file_name ist leer oder zu lang (höchstens 255 Zeichen ohne Pfade und Steuerzeichen).',
  missingFileName: () => 'Kein Dateiname: setzen Sie attributes.file_name oder geben Sie dem Dateiteil einen Dateinamen.',
  referenceNotString: () => 'attributes.external_reference_id muss eine Zeichenkette sein.',
  referenceEmpty: () => 'attributes.external_reference_id darf nicht leer sein.',
  referenceTooLong: (p) => `attributes.external_reference_id ist ${p.length} Zeichen lang; erlaubt sind höchstens ${p.max}.`,
  referenceBadCharacters: () => 'attributes.external_reference_id darf nur Buchstaben, Ziffern und . _ : / # @ - enthalten.',
  missingApiKey: () => 'Ein API-Schlüssel ist nötig: senden Sie den Header „Authorization: Bearer <API-Schlüssel>“.',
  unknownApiKey: () => 'Der API-Schlüssel ist ungültig.',
  routeNotFound: () => 'Diesen Endpunkt gibt es nicht.',
  methodNotAllowed: (p) => `${p.method} ist hier nicht erlaubt; dieser Endpunkt nimmt ${p.allow} an.`,
  scanNotFound: () => 'Für diesen API-Schlüssel gibt es keinen Scan mit dieser ID.',
  referenceNotFound: () => 'Für diesen API-Schlüssel gibt es keinen Scan mit dieser external_reference_id.',
  syncScanTimeout: (p) =>
    `Der Scan wurde nicht innerhalb von ${p.seconds} Sekunden fertig. Er läuft weiter: rufen Sie ihn mit GET /file-scans/{file_scan_id} ab.`,
  duplicateReference: () => 'Diese external_reference_id wurde mit diesem API-Schlüssel bereits verwendet.',
  fileTooLarge: (p) =>
    `Die Datei überschreitet die Grenze von ${p.limit} (${p.bytes} Bytes) für ${p.mode === 'sync' ? 'synchrone' : 'asynchrone'} Scans.`,
  rateLimited: (p) => `Zu viele Anfragen. Versuchen Sie es in ${p.seconds} Sekunden erneut.`,
  internalError: () => 'Der Dienst konnte die Anfrage nicht bearbeiten.',
  malformedHttp: () =>
    'Die Anfrage ist kein gültiges HTTP/1.1 (Anfragezeile, Header, Content-Length oder Chunked-Kodierung) und wurde nicht gelesen.',
  requestTimeout: (p) => `Die Anfrage kam nicht innerhalb von ${p.seconds} Sekunden vollständig an. Nichts wurde gescannt; senden Sie sie erneut.`,
  headersTooLarge: (p) => `URL und Header der Anfrage sind größer als ${p.limit}.`,
  requestTooLarge: () => 'Eine Chunk-Erweiterung des Anfrageinhalts ist zu groß.',
  expectationFailed: () => 'Nur „Expect: 100-continue“ wird unterstützt.',
  httpVersionNotSupported: () => 'Nur HTTP/1.1 und HTTP/1.0 werden unterstützt.',
  badHostHeader: () => 'Die Anfrage braucht genau einen gültigen Host-Header (HTTP/1.1, RFC 9112 Abschnitt 3.2).',
  scanFailed: (p) => `Der Scan konnte nicht abgeschlossen werden: ${p.reason}. Angabe der Engine: ${p.detail}`,
  engineUnavailable: () => 'die Scan-Engine ist nicht erreichbar',
  clamavUnavailable: () =>
    'ClamAV, mit dem hier bisher geprüft wurde, ist nicht verfügbar. Starten Sie ClamAV (oder prüfen Sie die Installation) und prüfen Sie die Datei erneut, oder wählen Sie für sie „nur mit Basisprüfungen prüfen“',
  engineTimeout: () => 'die Scan-Engine hat nicht rechtzeitig geantwortet',
  engineSizeLimit: () => 'die Datei ist größer als die Grenze der Scan-Engine',
  engineAborted: () => 'der Scan wurde abgebrochen',
  fileUnreadable: () => 'die hochgeladene Datei konnte nicht gelesen werden',
  engineFailed: () => 'die Scan-Engine hat einen Fehler gemeldet',
  scanFailedUnexpectedly: () => 'Der Scan konnte nicht abgeschlossen werden, weil die Scan-Engine unerwartet fehlschlug.',
  scanInterrupted: () =>
    'Der Dienst wurde während dieses Scans beendet und die hochgeladene Datei ist nicht mehr vorhanden, daher konnte der Scan nicht fortgesetzt werden.',
};

const catalogues: Record<Language, Catalogue> = { en, de };

/** A message to render later, in whatever language the reader asked for. */
export type Message = { [K in MessageKey]: Parameters<Catalogue[K]>[0] extends undefined ? { key: K; params?: undefined } : { key: K; params: Parameters<Catalogue[K]>[0] } }[MessageKey];

export function render(message: Message, language: Language): string {
  const template = catalogues[language][message.key] as (params: unknown) => string;
  return template(message.params);
}
