import { describe, expect, it } from 'vitest';
import type { ScanEvent } from '../../../shared/scans/record.ts';
import { folderStatus, protectionView, scanRecord } from './test-core.ts';
import {
  acknowledgeThreats,
  initialTrayState,
  keepsRunningInTray,
  reduceTray,
  RECENT_LIMIT,
  shorten,
  summarizeWatch,
  trayIcon,
  trayMenu,
  trayTooltip,
  withProtection,
  withWatch,
  type TrayState,
} from '../../../electron/shell/tray-state.ts';
import { textsFor } from '../../../electron/shell/texts.ts';

const run = (events: ScanEvent[], state: TrayState = initialTrayState) => events.reduce(reduceTray, state);
const counts = (queued: number, uploading = 0, processing = 0): ScanEvent => ({ type: 'counts', counts: { queued, uploading, processing } });
const finished = (id: string, safe: boolean | null, status: 'completed' | 'failed' | 'skipped' = 'completed'): ScanEvent => ({
  type: 'record',
  record: scanRecord({ id, fileName: `${id}.bin`, status, safe }),
});

describe('tray icon state', () => {
  it('is idle with nothing queued, scanning while anything is queued or in flight', () => {
    expect(trayIcon(initialTrayState)).toBe('idle');
    expect(trayIcon(run([counts(2)]))).toBe('scanning');
    expect(trayIcon(run([counts(0, 1)]))).toBe('scanning');
    expect(trayIcon(run([counts(0, 0, 1)]))).toBe('scanning');
    expect(trayIcon(run([counts(3), counts(0)]))).toBe('idle');
  });

  it('shows a threat until the user opens the window, even while scanning or after', () => {
    const state = run([counts(1), finished('bad', false), counts(0)]);
    expect(trayIcon(state)).toBe('threat');
    expect(trayIcon(run([counts(5)], state))).toBe('threat');
    expect(trayIcon(acknowledgeThreats(state))).toBe('idle');
  });

  it('is not alarmed by clean, failed or pending records', () => {
    const state = run([finished('a', true), finished('b', null, 'failed'), { type: 'record', record: scanRecord({ id: 'c', status: 'uploading', safe: null }) }]);
    expect(trayIcon(state)).toBe('idle');
  });

  it('forgets a threat whose scan was removed', () => {
    expect(trayIcon(run([finished('bad', false), { type: 'removed', ids: ['bad'] }]))).toBe('idle');
  });

  it('ignores progress events (same state object)', () => {
    const state = run([counts(1)]);
    expect(reduceTray(state, { type: 'progress', progress: { id: 'x', sent: 1, total: 2 } })).toBe(state);
  });
});

describe('recent verdicts', () => {
  it('keeps the last few finished scans, newest first, once each', () => {
    const ids = Array.from({ length: RECENT_LIMIT + 2 }, (_, i) => `s${i}`);
    let state = run(ids.map((id) => finished(id, true)));
    state = run([finished('s3', false)], state);
    expect(state.recent.map((item) => item.id)).toEqual(['s3', 's6', 's5', 's4', 's2']);
    expect(state.recent[0]).toEqual({ id: 's3', fileName: 's3.bin', verdict: 'unsafe' });
  });

  it('lists failures as "could not scan", never as clean, and leaves out skipped files', () => {
    const state = run([finished('f', null, 'failed'), finished('k', null, 'skipped')]);
    expect(state.recent).toEqual([{ id: 'f', fileName: 'f.bin', verdict: 'could-not-scan' }]);
  });
});

describe('watching', () => {
  it('summarizes folder states', () => {
    expect(summarizeWatch([])).toBe('none');
    expect(summarizeWatch([folderStatus('a'), folderStatus('b', true)])).toBe('watching');
    expect(summarizeWatch([folderStatus('a', true), { ...folderStatus('b'), state: 'paused' }])).toBe('paused');
  });

  it('keeps the app in the tray only while folders are watched', () => {
    expect(keepsRunningInTray(initialTrayState)).toBe(false);
    expect(keepsRunningInTray(withWatch(initialTrayState, [folderStatus('a')]))).toBe(true);
    expect(keepsRunningInTray(withWatch(initialTrayState, [folderStatus('a', true)]))).toBe(false);
  });
});

describe('tray menu', () => {
  const texts = textsFor('en');
  const labels = (state: TrayState) => trayMenu(state, texts).map((item) => (item.type === 'separator' ? '---' : item.label));

  it('offers open, pause, the recent verdicts and quit', () => {
    const state = withWatch(run([finished('a', false), finished('b', true)]), [folderStatus('w')]);
    const items = trayMenu(state, texts);
    expect(labels(state)).toEqual(['Open Verdict', '---', 'Pause watching', '---', 'Quick scan', 'Full scan', '---', 'Recent verdicts', 'Clean: b.bin', 'Threat: a.bin', '---', 'Quit Verdict']);
    expect(items.find((item) => item.type === 'item' && item.label === 'Quick scan')).toMatchObject({ enabled: true, action: { type: 'start-job', kind: 'quick' } });
    expect(items.find((item) => item.type === 'item' && item.label === 'Full scan')).toMatchObject({ enabled: true, action: { type: 'start-job', kind: 'full' } });
    expect(items.find((item) => item.type === 'item' && item.label === 'Threat: a.bin')).toMatchObject({ enabled: true, action: { type: 'show-scan', id: 'a' } });
    expect(items.find((item) => item.type === 'item' && item.label === 'Pause watching')).toMatchObject({ enabled: true, action: { type: 'set-paused', paused: true } });
  });

  it('offers resume when paused, and disables pause when nothing is watched', () => {
    expect(trayMenu(withWatch(initialTrayState, [folderStatus('w', true)]), texts)[2]).toMatchObject({ label: 'Resume watching', action: { type: 'set-paused', paused: false } });
    expect(trayMenu(initialTrayState, texts)[2]).toMatchObject({ label: 'Pause watching', enabled: false });
    expect(labels(initialTrayState)).toContain('No verdicts yet');
  });

  it('speaks German', () => {
    const german = trayMenu(run([finished('a', false)]), textsFor('de')).map((item) => (item.type === 'separator' ? '---' : item.label));
    expect(german).toEqual(expect.arrayContaining(['Verdict öffnen', 'Schnellprüfung', 'Vollständige Prüfung', 'Bedrohung: a.bin', 'Verdict beenden']));
  });

  it('shortens long file names, keeping their end', () => {
    const long = `${'a'.repeat(80)}.docx`;
    const short = shorten(long, 48);
    expect(short).toHaveLength(48);
    expect(short.endsWith('.docx')).toBe(true);
    expect(shorten('short.txt', 48)).toBe('short.txt');
    // Counted in code points: an emoji is never cut into half a surrogate pair.
    const emoji = shorten('😀'.repeat(60), 48);
    expect(Array.from(emoji)).toHaveLength(48);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('shows a bidi control in a recent name as ⟨U+XXXX⟩ and keeps the real extension at the end', () => {
    const event: ScanEvent = { type: 'record', record: scanRecord({ id: 'rlo', fileName: `${'invoice'.repeat(8)}\u202Efdp.exe`, status: 'completed', safe: false }) };
    const labels = trayMenu(run([event]), textsFor('en')).flatMap((item) => (item.type === 'item' ? [item.label] : []));
    const label = labels.find((text) => text.startsWith('Threat: '));
    expect(label).toMatch(/^Threat: invoice.*….*⟨U\+202E⟩fdp\.exe$/);
    expect(label).not.toContain('\u202E');
  });
});

describe('protection in the tray', () => {
  const texts = textsFor('en');
  const view = (state: 'protected' | 'outdated' | 'limited' | 'not_running' | 'failing' | null) =>
    protectionView(state === null ? { status: null, remote: 'https://scan.example.com' } : { status: { ...protectionView().status!, state } });

  it('names limited, outdated and not running in the tooltip, after what the icon shows; protected adds nothing', () => {
    expect(trayTooltip(withProtection(initialTrayState, view('limited')), texts)).toBe('Verdict · Limited protection: basic checks only (EICAR test file)');
    expect(trayTooltip(withProtection(initialTrayState, view('outdated')), textsFor('de'))).toBe('Verdict · Signaturen veraltet');
    const busy = run([{ type: 'counts', counts: { queued: 1, uploading: 0, processing: 0 } }], withProtection(initialTrayState, view('not_running')));
    expect(trayTooltip(busy, texts)).toBe('Verdict: scanning… · ClamAV is not running');
    expect(trayTooltip(withProtection(initialTrayState, view('protected')), texts)).toBe('Verdict');
    // A remote service's engine is not Verdict's: nothing to say.
    expect(trayTooltip(withProtection(withProtection(initialTrayState, view('limited')), view(null)), texts)).toBe('Verdict');
  });

  it('puts the state first in the menu, opening the window; nothing while it is unknown', () => {
    const items = trayMenu(withProtection(initialTrayState, view('not_running')), texts);
    expect(items[0]).toEqual({ type: 'item', label: 'ClamAV is not running', enabled: true, action: { type: 'open' } });
    expect(items[1]).toEqual({ type: 'separator' });
    expect(trayMenu(withProtection(initialTrayState, view('protected')), textsFor('de'))[0]).toMatchObject({ label: 'Geschützt: ClamAV-Signaturen sind aktuell' });
    expect(trayMenu(initialTrayState, texts)[0]).toMatchObject({ label: 'Open Verdict' });
  });

  it('failing (the engine missed the self-test\'s EICAR): in the tooltip and first in the menu, in English and German', () => {
    expect(trayTooltip(withProtection(initialTrayState, view('failing')), texts)).toBe('Verdict · Detection is failing: the self-test was not detected');
    expect(trayMenu(withProtection(initialTrayState, view('failing')), textsFor('de'))[0]).toMatchObject({ label: 'Erkennung versagt: Der Selbsttest wurde nicht erkannt', action: { type: 'open' } });
  });

  it('keeps the same state object when nothing changed (no re-render)', () => {
    const limited = withProtection(initialTrayState, view('limited'));
    expect(withProtection(limited, view('limited'))).toBe(limited);
  });
});
