// The pipeline's "which engine would scan now", read from the protection view: only
// Verdict's own service has one; a remote service keeps reuse per service; an engine
// not known yet (no view) is said so, and then only unsafe verdicts are reused.
import { describe, expect, it } from 'vitest';
import { engineNowPort } from '../../../electron/core/engine-now.ts';
import { protectionStatus, type EngineFacts } from '../../../shared/engine/protection-state.ts';
import type { ProtectionView } from '../../../shared/engine/protection-view.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const view = (facts: EngineFacts | null): ProtectionView => ({
  status: facts ? protectionStatus(facts, NOW, 100 * 1024 * 1024) : null,
  remote: null,
  databaseDir: null,
  update: { phase: 'idle', last: null },
  checkedAt: NOW.toISOString(),
});
const port = (v: ProtectionView | null) => engineNowPort(() => v ?? view(null));

describe('engineNowPort', () => {
  it('ClamAV with dated signatures: its identity, without the age', async () => {
    const identity = { name: 'clamav' as const, version: '1.4.6', signatures: { version: 27467, date: '2026-11-24T09:21:02.000Z' } };
    expect(await port(view({ kind: 'clamav', source: 'system', where: 'unix:/run/clamav/clamd.ctl', identity }))('local')).toEqual({ ours: true, engine: identity });
  });

  it('the built-in engine; ClamAV expected but not answering (ClamAV, nothing known of its signatures)', async () => {
    expect(await port(view({ kind: 'builtin', why: 'clamav_not_found' }))('local')).toEqual({ ours: true, engine: { name: 'builtin', version: null, signatures: null } });
    expect(await port(view({ kind: 'starting', where: 'unix:/data/clamd.sock' }))('local')).toEqual({ ours: true, engine: { name: 'clamav', version: null, signatures: null } });
  });

  it('not known (no status, or the view failed): ours, engine null', async () => {
    expect(await port(view(null))('local')).toEqual({ ours: true, engine: null });
    expect(await port(null)('local')).toEqual({ ours: true, engine: null });
  });

  it('a remote service is not ours, whatever the view says', async () => {
    expect(await port(view({ kind: 'builtin', why: 'builtin_requested' }))('https://scan.example.com')).toEqual({ ours: false });
  });
});
