// The engine line `scan` and `watch` print: whose clamd (from the status's source, never from the
// path) and how files reach it, in English and German, for each source the core can report.
import { describe, expect, test } from 'vitest';
import { startEngineLine } from '../../../electron/cli/engine-line.ts';
import { protectionActionText } from '../../../electron/engine/protection-text.ts';
import { ENGINE_SOURCES, protectionStatus, type ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import type { ProtectionView } from '../../../shared/engine/protection-view.ts';
import { MB } from '../../../shared/service-contract/limits.ts';

const NOW = new Date('2026-11-28T10:00:00Z');
const identity = { name: 'clamav' as const, version: '1.4.6', signatures: null };
const view = (status: ProtectionStatus, databaseDir: string | null = null): ProtectionView => ({ status, remote: null, databaseDir, update: { phase: 'idle', last: null }, checkedAt: NOW.toISOString() });
const clamav = (source: 'configured' | 'system' | 'own' | 'found', where: string, transport?: 'fildes' | 'instream'): ProtectionStatus => {
  const status = protectionStatus({ kind: 'clamav', source, where, identity }, NOW, 100 * MB);
  return transport ? { ...status, engine: { ...status.engine, transport } } : status;
};

describe('the engine line', () => {
  test('a Debian-path socket is named by its source: the one you named, or one your own account runs, never the system\'s by its path', () => {
    const path = 'unix:/run/clamav/clamd.ctl';
    expect(startEngineLine(view(clamav('configured', path, 'fildes')))).toBe(
      `Engine: ClamAV 1.4.6 · custom signatures only at ${path} (outdated), the clamd you named; files go to clamd by descriptor (FILDES)`,
    );
    expect(startEngineLine(view(clamav('found', path, 'fildes')))).toContain(', a clamd your own account runs (not started by Verdict);');
    expect(startEngineLine(view(clamav('system', path, 'fildes')))).toContain(", the system's clamd;");
    expect(startEngineLine(view(clamav('own', 'unix:/d/clamd.sock', 'fildes'), '/d/clamav-db'))).toContain(", Verdict's own clamd, signatures from /d/clamav-db; files go");
  });

  test('over TCP: streamed; in German too', () => {
    const tcp = clamav('configured', 'tcp:127.0.0.1:3310', 'instream');
    expect(startEngineLine(view(tcp))).toMatch(/the clamd you named; files are streamed to clamd \(INSTREAM\)$/);
    expect(startEngineLine(view(tcp), 'de')).toBe(
      'Engine: ClamAV 1.4.6 · nur eigene Signaturen unter tcp:127.0.0.1:3310 (veraltet), der von Ihnen genannte clamd; Dateien werden an clamd gestreamt (INSTREAM)',
    );
  });

  test('what to do about signatures: the system updates only its own clamd', () => {
    expect(protectionActionText(clamav('system', 'unix:/run/clamav/clamd.ctl'))).toContain('systemctl status clamav-freshclam');
    expect(protectionActionText(clamav('found', 'unix:/run/clamav/clamd.ctl'))).toBe("Verdict does not update this clamd's signatures: whoever runs it does (a clamav container: its image or its freshclam).");
    expect(protectionActionText(clamav('configured', 'tcp:127.0.0.1:3310'), 'de')).toMatch(/^Verdict aktualisiert die Signaturen dieses clamd nicht/);
  });

  test('every source and state has words in both languages (no "undefined")', () => {
    for (const language of ['en', 'de'] as const) {
      for (const source of ENGINE_SOURCES) {
        if (source === 'builtin') continue;
        const missing = protectionStatus({ kind: 'not_running', source, where: 'tcp:h:1', why: 'clamd_not_answering' }, NOW, 100 * MB);
        for (const status of [clamav(source, 'tcp:h:1', 'instream'), clamav(source, 'unix:/s', undefined), missing]) {
          const line = startEngineLine(view(status), language);
          expect(line).not.toMatch(/undefined|null/);
          expect(line.startsWith('Engine: ')).toBe(true);
        }
      }
    }
  });
});
