// The protection state in the UI's words: each state's reason worded from its code and
// params (English exactly, German different and complete), the one action per state,
// the engine's facts, and every signature update outcome, with no placeholder left.
import { describe, expect, it } from 'vitest';
import { protectionStatus, PROTECTION_REASONS, type EngineFacts, type ProtectionStatus } from '../../shared/engine/protection-state.ts';
import { SIGNATURE_UPDATE_CODES, type ProtectionView, type SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { selfTestEngine, withSelfTest, type SelfTestResult } from '../../shared/engine/self-test.ts';
import { translator } from '../../renderer/i18n/messages.ts';
import {
  actionLabel,
  headline,
  hintText,
  lineAction,
  platformOf,
  reasonText,
  reasonWords,
  selfTestText,
  signaturesText,
  streamLimitText,
  updateOutcomeText,
  updateOutcomeWords,
  whereText,
} from '../../renderer/protection/protection-text.ts';

const en = translator('en');
const de = translator('de');
const NOW = new Date('2026-11-25T12:00:00.000Z');
const MB = 1024 * 1024;
const identity = (hoursOld: number | null) => ({
  name: 'clamav' as const,
  version: '1.4.6',
  signatures: hoursOld === null ? null : { version: 27467, date: new Date(NOW.getTime() - hoursOld * 3_600_000).toISOString() },
});

/** One status for every reason code (the self-test's: a clamd with fresh signatures that missed EICAR). */
const FACTS: Record<Exclude<(typeof PROTECTION_REASONS)[number], 'self_test_failed'>, EngineFacts> = {
  signatures_fresh: { kind: 'clamav', source: 'system', where: 'unix:/run/clamav/clamd.ctl', identity: identity(26) },
  signatures_old: { kind: 'clamav', source: 'own', where: 'unix:/data/clamd.sock', identity: identity(240) },
  signatures_undated: { kind: 'clamav', source: 'configured', where: 'tcp:127.0.0.1:3310', identity: identity(null) },
  builtin_requested: { kind: 'builtin', why: 'builtin_requested' },
  clamav_not_found: { kind: 'builtin', why: 'clamav_not_found', params: { tried: 'clamd' } },
  database_not_found: { kind: 'builtin', why: 'database_not_found', params: { tried: '/data/clamav-db' } },
  clamd_starting: { kind: 'starting', where: 'unix:/data/clamd.sock' },
  clamd_not_answering: { kind: 'not_running', source: 'system', where: 'unix:/run/clamav/clamd.ctl', why: 'clamd_not_answering' },
  clamd_failed: { kind: 'not_running', source: 'own', where: 'own clamd', why: 'clamd_failed', params: { problem: 'database_unusable', detail: 'No supported database files found' } },
};
const selfTest = (of: ProtectionStatus, result: SelfTestResult['result'], detail: string | null = null): SelfTestResult => ({
  at: NOW.toISOString(),
  result,
  engine: selfTestEngine(of.engine),
  detail,
  durationMs: 2,
});
const status = (reason: (typeof PROTECTION_REASONS)[number]): ProtectionStatus => {
  if (reason !== 'self_test_failed') return protectionStatus(FACTS[reason], NOW, 100 * MB);
  const fresh = protectionStatus(FACTS.signatures_fresh, NOW, 100 * MB);
  return withSelfTest(fresh, selfTest(fresh, 'failed'));
};
const view = (s: ProtectionStatus | null, remote: string | null = null): ProtectionView => ({
  status: s,
  remote,
  databaseDir: null,
  update: { phase: 'idle', last: null },
  checkedAt: NOW.toISOString(),
});

describe('the reason, worded from its code', () => {
  it('says in English exactly what each state means', () => {
    expect(reasonText(status('signatures_fresh'), en)).toBe('ClamAV 1.4.6 checks your files. Its signatures (version 27467) are 1 day old.');
    expect(reasonText(status('signatures_old'), en)).toBe(
      'ClamAV 1.4.6 checks your files, but its signatures (version 27467) are 10 days old, older than 3 days. New threats may not be recognised.',
    );
    expect(reasonText(status('signatures_undated'), en)).toBe('ClamAV 1.4.6 checks your files, but it reports no dated official signatures: only custom signature files are loaded.');
    expect(reasonText(status('clamav_not_found'), en)).toBe('ClamAV is not installed. Only basic checks look at files, and they recognise only the EICAR test file.');
    expect(reasonText(status('clamd_not_answering'), en)).toBe(
      'ClamAV should answer at unix:/run/clamav/clamd.ctl, but it does not. Only basic checks look at files until it does.',
    );
    // clamd's own words are not part of the sentence: they are shown under it (reasonWords).
    expect(reasonText(status('clamd_failed'), en)).toBe('Verdict’s own ClamAV could not start.');
  });

  it('gives clamd’s own words on why it is not running apart, to be shown under the sentence', () => {
    expect(reasonWords(status('clamd_failed'))).toEqual({ tool: 'clamd', words: 'No supported database files found' });
    for (const reason of PROTECTION_REASONS.filter((code) => code !== 'clamd_failed' && code !== 'clamd_not_answering')) expect(reasonWords(status(reason)), reason).toBeNull();
  });

  it.each(PROTECTION_REASONS)('%s: a German text that differs from the English one, with no placeholder left', (reason) => {
    const english = reasonText(status(reason), en);
    const german = reasonText(status(reason), de);
    expect(german).not.toBe(english);
    for (const text of [english, german, headline(status(reason), en), headline(status(reason), de)]) expect(text).not.toMatch(/\{\w+\}/);
  });

  it('never groups a signature version like an amount', () => {
    expect(reasonText(status('signatures_fresh'), de)).toContain('Version 27467');
    expect(reasonText(status('signatures_fresh'), de)).toContain('1 Tag alt');
  });

  it('names each state as a headline', () => {
    expect(['signatures_fresh', 'signatures_old', 'clamav_not_found', 'clamd_not_answering'].map((r) => headline(status(r as keyof typeof FACTS), en))).toEqual([
      'Protected',
      'Signatures out of date',
      'Limited protection',
      'ClamAV is not running',
    ]);
    expect(headline(status('clamav_not_found'), de)).toBe('Eingeschränkter Schutz');
  });
});

describe('the one action per state', () => {
  it('Update now for Verdict’s own signatures, How to install for this OS, Look again for a clamd that is not there', () => {
    expect(lineAction(status('signatures_old').action, 'linux')).toEqual({ kind: 'update' });
    expect(lineAction(status('database_not_found').action, 'linux')).toEqual({ kind: 'update' });
    expect(lineAction(status('clamav_not_found').action, 'windows')).toEqual({ kind: 'install', url: 'https://docs.clamav.net/manual/Installing/Windows.html' });
    expect(lineAction(status('clamav_not_found').action, 'linux')).toEqual({ kind: 'install', url: 'https://docs.clamav.net/manual/Installing/Packages.html' });
    expect(lineAction(status('clamd_not_answering').action, 'linux')).toEqual({ kind: 'look_again' });
    expect(lineAction(status('signatures_fresh').action, 'linux')).toBeNull();
    expect(lineAction(status('clamd_starting').action, 'linux')).toBeNull();
  });

  it('Start ClamAV, with no command to type, when Verdict’s own clamd is not running; Look again for a system clamd', () => {
    const failed = status('clamd_failed');
    expect(lineAction(failed.action, 'linux', failed.engine.source)).toEqual({ kind: 'start_clamav' });
    expect(actionLabel({ kind: 'start_clamav' }, en)).toBe('Start ClamAV');
    expect(actionLabel({ kind: 'start_clamav' }, de)).toBe('ClamAV starten');
    expect(hintText(failed.action, 'linux', en, failed.engine.source)).toBeNull();
    const system = status('clamd_not_answering');
    expect(lineAction(system.action, 'linux', system.engine.source)).toEqual({ kind: 'look_again' });
    expect(hintText(system.action, 'linux', en, system.engine.source)).toBe(en.t('protection.hint.start_clamav'));
  });

  it('explains the system’s updater and the install command for the OS', () => {
    expect(hintText(status('signatures_undated').action, 'linux', en)).toBe(
      'Your system keeps these signatures current. Check its updater: systemctl status clamav-freshclam',
    );
    expect(hintText('install_clamav', 'mac', en)).toBe('With Homebrew: brew install clamav');
    expect(hintText('install_clamav', 'mac', de)).toBe('Mit Homebrew: brew install clamav');
    expect(platformOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('mac');
    expect(platformOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
  });
});

describe('the engine’s facts', () => {
  it('where it runs, its signatures with date and age, and the remote service instead of a ClamAV state', () => {
    expect(whereText(view(status('signatures_fresh')), en)).toBe('The system’s clamd at unix:/run/clamav/clamd.ctl');
    // Whose clamd from the facts the core found, and how files reach it once known.
    const named = status('signatures_fresh');
    const tcp = { ...named, engine: { ...named.engine, source: 'configured' as const, where: 'tcp:127.0.0.1:3310', transport: 'instream' as const } };
    expect(whereText(view(tcp), en)).toBe('The clamd you named at tcp:127.0.0.1:3310; files are streamed to it (INSTREAM)');
    expect(whereText(view(tcp), de)).toBe('Der von Ihnen genannte clamd unter tcp:127.0.0.1:3310; Dateien werden an ihn gestreamt (INSTREAM)');
    const found = { ...named, engine: { ...named.engine, source: 'found' as const, transport: 'fildes' as const } };
    expect(whereText(view(found), en)).toBe('A clamd your own account runs, not started by Verdict, at unix:/run/clamav/clamd.ctl; files go to it by descriptor (FILDES)');
    // Only the system's clamd is the system's to update.
    expect(hintText('check_system_updater', 'linux', en, 'system')).toBe(en.t('protection.hint.check_system_updater'));
    expect(hintText('check_system_updater', 'linux', de, 'configured')).toBe(de.t('protection.hint.check_clamd_updater'));
    expect(hintText('check_system_updater', 'linux', en, 'found')).toBe(en.t('protection.hint.check_clamd_updater'));
    expect(whereText(view(status('signatures_old')), de)).toBe('Verdicts eigener clamd unter unix:/data/clamd.sock');
    expect(whereText(view(status('clamav_not_found')), en)).toBe('Inside Verdict');
    expect(whereText(view(null, 'https://scan.example.com/api'), en)).toBe('The remote service at scan.example.com');
    expect(signaturesText(status('signatures_fresh'), en)).toBe('Version 27467 of Nov 24, 2026 (1 day old)');
    expect(signaturesText(status('signatures_undated'), en)).toBe('No dated official signatures');
    expect(signaturesText(status('clamav_not_found'), en)).toBe('None');
  });

  it('the stream limit of a system clamd, with where to raise it', () => {
    const limited = protectionStatus({ ...FACTS.signatures_fresh, streamLimit: { bytes: 25 * MB, configPath: '/etc/clamav/clamd.conf' } } as EngineFacts, NOW, 100 * MB);
    expect(streamLimitText(limited, en)).toBe(
      'This clamd refuses files over 25 MB. Raise StreamMaxLength, MaxFileSize and MaxScanSize above 100M in /etc/clamav/clamd.conf, then restart clamd.',
    );
    expect(streamLimitText(status('signatures_fresh'), en)).toBeNull();
  });
});

describe('a signature update’s outcome in words', () => {
  const outcome = (code: SignatureUpdateOutcome['code'], params: SignatureUpdateOutcome['params'] = {}): SignatureUpdateOutcome => ({ code, params, at: NOW.toISOString() });

  it('says what happened in English', () => {
    expect(updateOutcomeText(outcome('updated', { version: 27468 }), en)).toBe('Signatures updated to version 27468.');
    expect(updateOutcomeText(outcome('current'), en)).toBe('The signatures are already current.');
    expect(updateOutcomeText(outcome('no_connection', { detail: 'x' }), en)).toBe('No connection to the signature server. Check the internet connection, then try again.');
    expect(updateOutcomeText(outcome('cool_down', { until: '2026-11-25 16:05:00' }), en)).toBe(
      'The signature server asked Verdict to wait until 2026-11-25 16:05:00. Try again after that.',
    );
    expect(updateOutcomeText(outcome('system_database'), en)).toBe(
      'Your system updates these signatures, not Verdict. Check its updater: systemctl status clamav-freshclam',
    );
  });

  it('gives freshclam’s (or the system’s) own words on a failure apart, never inside the sentence', () => {
    const detail = "ERROR: Can't download daily.cvd";
    expect(updateOutcomeWords(outcome('failed', { detail }))).toEqual({ tool: 'freshclam', words: detail });
    expect(updateOutcomeWords(outcome('no_connection', { detail }))).toEqual({ tool: 'freshclam', words: detail });
    expect(updateOutcomeWords(outcome('spawn_failed', { detail: '/usr/bin/freshclam: EACCES' }))).toEqual({ tool: 'system', words: '/usr/bin/freshclam: EACCES' });
    expect(updateOutcomeWords(outcome('updated', { version: 27468 }))).toBeNull();
    expect(updateOutcomeWords(outcome('failed'))).toBeNull();
    for (const code of SIGNATURE_UPDATE_CODES) {
      for (const tr of [en, de]) expect(updateOutcomeText(outcome(code, { detail }), tr), code).not.toContain(detail);
    }
  });

  it.each(SIGNATURE_UPDATE_CODES)('%s: worded in both languages, differently, with nothing left unfilled', (code) => {
    const params = { version: 27468, until: '2026-11-25 16:05:00', detail: 'ERROR: something' };
    for (const p of [params, {}]) {
      const english = updateOutcomeText(outcome(code, p), en);
      const german = updateOutcomeText(outcome(code, p), de);
      expect(german).not.toBe(english);
      if (p === params) for (const text of [english, german]) expect(text).not.toMatch(/\{\w+\}/);
    }
  });
});

describe('the last self-test (Settings › Malware engine)', () => {
  it('says whether the engine detected EICAR, when, and with which signature, in English and German', () => {
    const fresh = status('signatures_fresh');
    expect(selfTestText(fresh, en)).toBe('Not run yet');
    expect(selfTestText(withSelfTest(fresh, selfTest(fresh, 'passed', 'Eicar-Signature')), en)).toMatch(/^Passed .*2026.*: the EICAR test file was detected \(Eicar-Signature\)$/);
    expect(selfTestText(status('self_test_failed'), en)).toMatch(/^Failed .*: the EICAR test file was not detected$/);
    expect(selfTestText(status('self_test_failed'), de)).toMatch(/^Fehlgeschlagen .*: Die EICAR-Testdatei wurde nicht erkannt$/);
    expect(selfTestText(withSelfTest(fresh, selfTest(fresh, 'error', 'clamd did not answer')), de)).toMatch(/^Konnte nicht laufen .*: clamd did not answer$/);
  });

  it('failing: its headline; for a system clamd, its updater to check', () => {
    expect(headline(status('self_test_failed'), en)).toBe('Detection is failing');
    expect(headline(status('self_test_failed'), de)).toBe('Erkennung versagt');
    expect(status('self_test_failed').action).toBe('check_system_updater');
  });
});
