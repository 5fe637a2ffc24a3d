// The settings shapes for threat response and privacy, merged into the
// existing settings schemas the way notes/protection.md tells settings.ts to:
// a settings file written before they existed still parses, with defaults.
import { describe, expect, it } from 'vitest';
import { settingsSchema, watchedFolderSchema } from '../../../shared/settings/settings.ts';
import {
  consentHostLabel,
  exclusionRulesSchema,
  folderProtectionShape,
  historyRetentionSchema,
  needsUploadConsent,
  protectionSettingsShape,
} from '../../../shared/settings/protection.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';

const folderSchema = watchedFolderSchema.extend(folderProtectionShape);
const extendedSettings = settingsSchema.extend({ ...protectionSettingsShape, watchedFolders: folderSchema.array().max(100).default([]) });

/** A settings.json as Verdict 0.1 writes it today. */
const OLD_FILE = {
  version: 1,
  language: 'de',
  backend: { kind: 'remote', baseUrl: 'https://scan.example.com' },
  mode: 'auto',
  reuseVerdictDays: 30,
  notifyClean: false,
  watchingPaused: false,
  watchedFolders: [{ id: 'f1', path: '/home/u/Downloads', recursive: true, ignore: ['*.part'], paused: false, scanExisting: false }],
};

describe('protection settings', () => {
  it('an existing settings file parses with the defaults: notify, no exclusions, no limit, ask before uploading, keep history', () => {
    const parsed = extendedSettings.parse(structuredClone(OLD_FILE));
    expect(parsed).toMatchObject({
      ...OLD_FILE,
      threatAction: 'notify',
      exclusions: { paths: [], globs: [], extensions: [] },
      maxAutoScanSize: null,
      confirmRemoteUploads: true,
      remoteUploadConsentHosts: [],
      historyRetention: {},
    });
    expect(parsed.watchedFolders[0]).toEqual({
      ...OLD_FILE.watchedFolders[0],
      threatAction: 'notify',
      exclusions: { paths: [], globs: [], extensions: [] },
      maxAutoScanSize: null,
      backend: 'default',
    });
    // And what is written back parses to the same thing.
    expect(extendedSettings.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  it('partial exclusions get the missing lists', () => {
    expect(exclusionRulesSchema.parse({ globs: ['*.iso'] })).toEqual({ paths: [], globs: ['*.iso'], extensions: [] });
  });

  it('accepts what the settings view offers', () => {
    const parsed = extendedSettings.parse({
      ...OLD_FILE,
      threatAction: 'quarantine',
      exclusions: { paths: ['~/Private'], globs: ['node_modules'], extensions: ['.iso', 'tar.gz', 'VMDK'] },
      maxAutoScanSize: 20 * 1024 * 1024,
      confirmRemoteUploads: false,
      remoteUploadConsentHosts: ['https://scan.example.com', 'http://127.0.0.1:8080'],
      historyRetention: { keepDays: 90, keepScans: 10_000 },
    });
    expect(parsed.threatAction).toBe('quarantine');
    expect(parsed.historyRetention).toEqual({ keepDays: 90, keepScans: 10_000 });
  });

  it.each([
    ['an unknown threat action', { threatAction: 'delete' }],
    ['an extension with a slash', { exclusions: { extensions: ['a/b'] } }],
    ['an extension that is only a dot', { exclusions: { extensions: ['.'] } }],
    ['an empty glob', { exclusions: { globs: [''] } }],
    ['a size limit of zero', { maxAutoScanSize: 0 }],
    ['a size limit above the service limit', { maxAutoScanSize: MAX_ASYNC_FILE_SIZE + 1 }],
    ['a consent host with a path', { remoteUploadConsentHosts: ['https://scan.example.com/api'] }],
    ['a consent host that is not http(s)', { remoteUploadConsentHosts: ['ftp://scan.example.com'] }],
    ['a retention of zero days', { historyRetention: { keepDays: 0 } }],
    ['an unknown retention field', { historyRetention: { keepForever: true } }],
  ])('rejects %s', (_what, change) => {
    expect(extendedSettings.safeParse({ ...OLD_FILE, ...change }).success).toBe(false);
  });

  it('retention may keep by days, by count, both or neither', () => {
    expect(historyRetentionSchema.parse({})).toEqual({});
    expect(historyRetentionSchema.parse({ keepScans: 5 })).toEqual({ keepScans: 5 });
  });
});

describe('remote upload consent', () => {
  const settings = { confirmRemoteUploads: true, remoteUploadConsentHosts: ['https://trusted.example.com'] };

  it('asks for a remote origin the user has not agreed to, never for the local engine', () => {
    expect(needsUploadConsent(settings, 'https://scan.example.com')).toBe(true);
    expect(needsUploadConsent(settings, 'https://trusted.example.com')).toBe(false);
    expect(needsUploadConsent(settings, null)).toBe(false);
    expect(needsUploadConsent({ ...settings, confirmRemoteUploads: false }, 'https://scan.example.com')).toBe(false);
  });

  it('names the host (with a non-default port) in the question', () => {
    expect(consentHostLabel('https://scan.example.com')).toBe('scan.example.com');
    expect(consentHostLabel('http://10.0.0.5:8080')).toBe('10.0.0.5:8080');
  });
});
