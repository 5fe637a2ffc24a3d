// The self-test found the engine blind to EICAR (protection `failing`): told once when
// it happens, in the user's language, with what to do; again only after it recovered.
import { describe, expect, it, vi } from 'vitest';
import type { ProtectionStatus } from '../../../shared/engine/protection-state.ts';
import { Notification } from './fake-electron.ts';
import { useNotificationsFixture } from './notifications-fixture.ts';
import { protectionView } from './test-core.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const fx = useNotificationsFixture({ windowMs: 10 });

const status = (state: 'protected' | 'failing'): ProtectionStatus => ({
  state,
  reason: state === 'failing' ? { code: 'self_test_failed', params: { at: '2026-11-27T10:00:00.000Z' } } : { code: 'signatures_fresh', params: { signatureVersion: 27467, ageDays: 0 } },
  action: state === 'failing' ? 'update_signatures' : 'none',
  engine: { name: 'clamav', source: 'own', where: 'unix:/d/clamd.sock', version: '1.4.6', signatures: null },
  streamLimit: null,
});

describe('a failed self-test', () => {
  it('is told when protection becomes failing, not again while it stays so, and again after a recovery; a click opens the window', async () => {
    const stop = fx.start();
    fx.core.emitProtection(protectionView({ status: status('protected') }));
    fx.core.emitProtection(protectionView({ status: status('failing') }));
    fx.core.emitProtection(protectionView({ status: status('failing'), checkedAt: '2026-11-27T11:00:00.000Z' }));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({ title: 'Verdict: malware detection is failing', body: expect.stringContaining('Scans go on.') });
    Notification.shown[0]!.emit('click');
    expect(fx.onOpen).toHaveBeenCalled();
    fx.core.emitProtection(protectionView({ status: status('protected') }));
    fx.core.emitProtection(protectionView({ status: status('failing') }));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(2));
    stop();
  });

  it('speaks German', async () => {
    fx.core.settingsValue = { ...fx.core.settingsValue, language: 'de' };
    const stop = fx.start();
    fx.core.emitProtection(protectionView({ status: status('failing') }));
    await vi.waitFor(() => expect(Notification.shown).toHaveLength(1));
    expect(Notification.shown[0]!.options).toMatchObject({ title: 'Verdict: Die Erkennung von Schadsoftware versagt', body: expect.stringContaining('Prüfungen laufen weiter.') });
    stop();
  });
});
