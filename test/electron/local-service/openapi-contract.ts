// The service's published OpenAPI document (electron/local-service/openapi.yaml)
// as a checker of real answers: the operation a request reached (or the
// document's answers outside operations), then the answer's status, the headers
// the document declares and its JSON body, each validated with Ajv (JSON Schema
// 2020-12, OpenAPI 3.1's dialect) against the document's own schemas.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { parse } from 'yaml';
import { observeReplies } from './harness.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../../../electron/local-service/openapi.yaml', import.meta.url));

type Node = Record<string, unknown>;

/** The document as parsed; read once per test process. */
export const openApiDocument = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Node;

/** One request the suite sent and the answer it got. */
export interface Exchange {
  method: string;
  /** The request target as sent: a path (with any query), or an absolute URL. */
  target: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received. */
  body: string;
}

const DOC_ID = 'verdict-openapi';
/** Where the document keeps the answers to requests that reach no operation (its own extension). */
const OUTSIDE_OPERATIONS = '/x-answers-outside-operations/responses';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// ajv-formats is CommonJS: from ESM its plugin is the module's `default` member.
const addFormats = ajvFormats.default;

/**
 * Ajv over the whole document, so `$ref`s inside schemas resolve against it. Strict: an unknown keyword is an
 * error; only `type` and `required` may stand apart from the `properties` they speak of (as in if/then).
 */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors: true });
  addFormats(ajv);
  // The document's top-level members are not schema keywords; every schema inside is still checked strictly.
  for (const member of Object.keys(openApiDocument)) ajv.addKeyword(member);
  ajv.addSchema(openApiDocument, DOC_ID);
  return ajv;
}

const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();

/** The validator of the schema at `pointer` in the document (compiled once). */
export function schemaAt(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}#${encodeURI(pointer)}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

/** The node at a JSON pointer (`/components/schemas/Scan`), or undefined. */
export function nodeAt(pointer: string): unknown {
  let node: unknown = openApiDocument;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Node)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** Follows an OpenAPI `$ref` (local ones only, as the document has) to the object and its pointer. */
export function resolved(pointer: string): { node: Node; pointer: string } {
  let current = pointer;
  for (let hops = 0; hops < 10; hops++) {
    const node = nodeAt(current);
    if (typeof node !== 'object' || node === null) throw new Error(`openapi.yaml: nothing at ${current}`);
    const ref = (node as Node).$ref;
    if (typeof ref !== 'string') return { node: node as Node, pointer: current };
    if (!ref.startsWith('#/')) throw new Error(`openapi.yaml: only local $refs are expected, not ${ref}`);
    current = ref.slice(1);
  }
  throw new Error(`openapi.yaml: a $ref loop at ${pointer}`);
}

const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** The path templates as regular expressions, literal ones first; a parameter marked `x-rest-of-path` takes the rest. */
const templates = Object.keys(openApiDocument.paths as Node)
  .map((template) => {
    const item = openApiDocument.paths as Record<string, Node>;
    const parameters = Object.values(item[template] ?? {}).flatMap((operation) => ((operation as Node).parameters as Node[] | undefined) ?? []);
    const restOfPath = new Set(parameters.filter((p) => p['x-rest-of-path'] === true).map((p) => p.name));
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_all, name: string) => (restOfPath.has(name) ? '(.+)' : '([^/]+)'));
    return { template, pattern: new RegExp(`^${source}$`), literal: !template.includes('{') };
  })
  .sort((a, b) => Number(b.literal) - Number(a.literal));

/** The pointer of the responses a request can get: its operation's, or the answers outside operations. */
export function responsesFor(method: string, target: string): string {
  const path = (/^[a-z]+:\/\/[^/]*(\/.*)?$/i.exec(target)?.[1] ?? target).split(/[?#]/)[0] as string;
  const match = templates.find(({ pattern }) => pattern.test(path));
  const verb = method.toLowerCase();
  if (match && METHODS.includes(verb) && nodeAt(`/paths/${escape(match.template)}/${verb}`) !== undefined) {
    return `/paths/${escape(match.template)}/${verb}/responses`;
  }
  return OUTSIDE_OPERATIONS;
}

const errorsOf = (validate: ValidateFunction) => (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');

/** Every way the answer departs from the document; empty when it is declared and valid. */
export function contractProblems(exchange: Exchange): string[] {
  const where = `${exchange.method} ${exchange.target.slice(0, 120)} → ${exchange.status}`;
  const responses = responsesFor(exchange.method, exchange.target);
  const declared = nodeAt(responses) as Node;
  const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find((k) => declared[k] !== undefined);
  if (key === undefined) return [`${where}: status not declared at ${responses}`];
  const response = resolved(`${responses}/${escape(key)}`);
  return [...headerProblems(exchange, response), ...bodyProblems(exchange, response)].map((problem) => `${where}: ${problem}`);
}

function headerProblems(exchange: Exchange, response: { node: Node; pointer: string }): string[] {
  const problems: string[] = [];
  for (const name of Object.keys((response.node.headers as Node | undefined) ?? {})) {
    const header = resolved(`${response.pointer}/headers/${escape(name)}`);
    const value = exchange.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.node.required === true) problems.push(`header ${name} is required`);
      continue;
    }
    if (Array.isArray(value)) {
      problems.push(`header ${name} sent ${value.length} times`);
      continue;
    }
    const validate = schemaAt(`${header.pointer}/schema`);
    if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(value)} ${errorsOf(validate)}`);
  }
  return problems;
}

function bodyProblems(exchange: Exchange, response: { node: Node; pointer: string }): string[] {
  // An answer to HEAD has no body, whatever it would have had.
  if (exchange.method.toUpperCase() === 'HEAD') return [];
  const content = response.node.content as Node | undefined;
  if (!content) return exchange.body.length === 0 ? [] : ['a body where none is declared'];
  const type = String(exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (content[type] === undefined) return [`content type ${JSON.stringify(type)} is not one of ${Object.keys(content).join(', ')}`];
  let body: unknown;
  try {
    body = JSON.parse(exchange.body);
  } catch {
    return [`a body that is not JSON: ${JSON.stringify(exchange.body.slice(0, 100))}`];
  }
  const validate = schemaAt(`${response.pointer}/content/${escape(type)}/schema`);
  return validate(body) ? [] : [`body ${JSON.stringify(body).slice(0, 300)}: ${errorsOf(validate)}`];
}

/** Throws with every problem, so a test fails at the request whose answer is not in the document. */
export function expectDeclared(exchange: Exchange): void {
  const problems = contractProblems(exchange);
  if (problems.length > 0) throw new Error(`Not as openapi.yaml declares:\n${problems.join('\n')}`);
}

/** Checks every answer the harness's send() gets from now on; returns the function that stops it (a vitest teardown). */
export function checkRepliesAgainstOpenApi(): () => void {
  return observeReplies((request, reply) =>
    expectDeclared({ method: request.method, target: request.url, status: reply.status, headers: reply.headers, body: reply.text }),
  );
}
