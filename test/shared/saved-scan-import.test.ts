// The import check of saved scans (outside input): whatever a file holds, the check
// never throws; what it accepts is a list of valid scans with distinct names, and what
// it refuses names at least one problem, each at a place in the file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkImport, sameName, savedScanSchema, savedScansFile } from '../../shared/saved-scans/saved-scan.ts';

const scanLike = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 90 }), fc.constantFrom('Photos', 'photos', ' USB ', '\u202eexe')),
    folders: fc.array(fc.oneof(fc.constantFrom('/home/u', 'C:\\Users\\u', 'relative', ''), fc.string()), { maxLength: 3 }),
    excluded: fc.array(fc.constantFrom('/home/u/.cache', 'x'), { maxLength: 2 }),
    basicOnly: fc.oneof(fc.boolean(), fc.string()),
    mode: fc.constantFrom('auto', 'sync', 'async', 'turbo'),
  },
  { requiredKeys: [] },
);

describe('checkImport', () => {
  it('accepts only valid scans with distinct names, and names every refusal', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(scanLike, { maxLength: 6 }).map((scans) => JSON.stringify({ verdict: 'saved-scans', version: 1, scans })), fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
        const checked = checkImport(text);
        if (checked.ok) {
          for (const scan of checked.scans) expect(savedScanSchema.safeParse(scan).success).toBe(true);
          const names = checked.scans.map((scan) => scan.name);
          expect(names.every((name, i) => names.findIndex((other) => sameName(other, name)) === i)).toBe(true);
        } else {
          expect(checked.problems.length).toBeGreaterThan(0);
          for (const problem of checked.problems) expect(problem.where).toMatch(/^(file|verdict|version|scans(\[\d+\](\.[\w]+(\[\d+\])?)?)?)$/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back what an export wrote', () => {
    const scans = [savedScanSchema.parse({ name: 'A', folders: ['/a'] }), savedScanSchema.parse({ name: 'B', folders: ['C:\\b'], excluded: ['C:\\b\\tmp'], force: true, mode: 'sync' })];
    expect(checkImport(JSON.stringify(savedScansFile(scans)))).toEqual({ ok: true, scans });
  });
});
