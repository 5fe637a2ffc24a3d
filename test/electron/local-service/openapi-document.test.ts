// The published OpenAPI document itself: valid OpenAPI 3.1, every schema
// compiles strictly (JSON Schema 2020-12), every $ref resolves, and its codes
// are the service's own. The conformance suite checks real answers against it.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENGINE_ERROR_CODES } from '../../../electron/engine/engine.ts';
import { INTERRUPTED } from '../../../electron/local-service/scanning/scan-view.ts';
import { ERROR_CODES } from '../../../shared/service-contract/errors.ts';
import { SUPPORTED_LANGUAGES } from '../../../shared/service-contract/limits.ts';
import { nodeAt, openApiDocument, resolved, schemaAt } from './openapi-contract.ts';

type Node = Record<string, unknown>;

/** Every `$ref` in the document, with where it stands. */
function refsIn(node: unknown, at = ''): Array<{ at: string; ref: string }> {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node as Node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refsIn(value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
  );
}

const responsesOf = (pointer: string) => Object.entries(nodeAt(pointer) as Node).map(([status]) => ({ status, response: resolved(`${pointer}/${status}`) }));

const operations = Object.entries(openApiDocument.paths as Record<string, Node>).flatMap(([path, item]) =>
  Object.keys(item).map((method) => ({ path, method, pointer: `/paths/${path.replaceAll('/', '~1')}/${method}` })),
);

describe('electron/local-service/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(openApiDocument);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openApiDocument.openapi).toMatch(/^3\.1\./);
  });

  it('has every $ref resolving, and every schema compiling under strict JSON Schema 2020-12', () => {
    for (const { at, ref } of refsIn(openApiDocument)) expect(nodeAt(ref.slice(1)), `${ref} at ${at}`).toBeDefined();
    for (const name of Object.keys((openApiDocument.components as Node).schemas as Node)) expect(() => schemaAt(`/components/schemas/${name}`), name).not.toThrow();
    for (const name of Object.keys((openApiDocument.components as Node).headers as Node)) expect(() => schemaAt(`/components/headers/${name}/schema`), name).not.toThrow();
    expect(() => schemaAt('/components/requestBodies/Submission/content/multipart~1form-data/schema')).not.toThrow();
  });

  it('has the four endpoints of the spec, each needing the bearer key and answering in en or de', () => {
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual([
      'GET /file-scans/external-reference/{external_reference_id}',
      'GET /file-scans/{id}',
      'POST /file-scans',
      'POST /file-scans/sync',
    ]);
    expect(openApiDocument.security).toEqual([{ bearer: [] }]);
    expect(nodeAt('/components/securitySchemes/bearer')).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(nodeAt('/components/headers/Content-Language/schema/enum')).toEqual([...SUPPORTED_LANGUAGES]);
    for (const { pointer } of operations) {
      for (const { status, response } of responsesOf(`${pointer}/responses`)) {
        expect((response.node.headers as Node | undefined)?.['Content-Language'], `${pointer} ${status}`).toBeDefined();
      }
    }
  });

  it("declares exactly the service's error codes, each under its own status", () => {
    expect(nodeAt('/components/schemas/Error/properties/code/enum')).toEqual(Object.keys(ERROR_CODES));
    const pointers = [...operations.map(({ pointer }) => `${pointer}/responses`), '/x-answers-outside-operations/responses'];
    const seen = new Set<string>();
    for (const pointer of pointers) {
      for (const { status, response } of responsesOf(pointer)) {
        if (!status.startsWith('4') && !status.startsWith('5')) continue;
        const schema = `${response.pointer}/content/application~1json/schema`;
        for (const code of Object.keys(ERROR_CODES) as Array<keyof typeof ERROR_CODES>) {
          const accepted = schemaAt(schema)({ code, message: 'm', ...(code === 'sync_scan_timeout' ? { file_scan_id: '7f1c2a9e-0000-4000-8000-000000000001' } : {}) });
          if (accepted) seen.add(code);
          if (accepted) expect(String(ERROR_CODES[code]), `${code} under ${pointer}/${status}`).toBe(status);
        }
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('declares the failure codes a failed scan can carry', () => {
    expect(new Set(nodeAt('/components/schemas/ScanError/properties/code/enum') as string[])).toEqual(new Set([...ENGINE_ERROR_CODES, INTERRUPTED]));
  });

  it('declares Allow on 405, Retry-After on 429, WWW-Authenticate on 401 and Location on 202', () => {
    expect(Object.keys(resolved('/components/responses/MethodNotAllowed').node.headers as Node)).toContain('Allow');
    expect(Object.keys(resolved('/components/responses/RateLimited').node.headers as Node)).toContain('Retry-After');
    expect(Object.keys(resolved('/components/responses/Unauthorized').node.headers as Node)).toContain('WWW-Authenticate');
    expect(Object.keys(nodeAt('/paths/~1file-scans/post/responses/202/headers') as Node)).toContain('Location');
  });
});
