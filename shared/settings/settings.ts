// The user's settings, persisted as JSON by the main process and validated on
// read. Never holds the API key: that lives in the OS keychain only.
import { z } from 'zod';
import { modeChoiceSchema } from '../scans/record.ts';
import { BASE_URL_PROBLEM_TEXT, baseUrlProblem } from './input-problems.ts';
import {
  consentOriginSchema,
  exclusionRulesSchema,
  folderBackendSchema,
  historyRetentionSchema,
  maxAutoScanSizeSchema,
  protectionSettingsShape,
  threatActionSchema,
} from './protection.ts';
import { scanSchedulesSchema } from './schedules.ts';
import { clamdChoiceSchema } from '../engine/clamd-choice.ts';
import { detectionSettingsFieldSchema, detectionSettingsSchema } from './detection.ts';
import { driveSettingsSchema } from './drives.ts';

export const SETTINGS_VERSION = 1;

/**
 * A detection name the user allows (issue 28 §1), as an engine reports it: "Win.Tool.Foo-123".
 * Matched exactly (case and all); no control characters, so it reads on one line.
 */
export const detectionNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]+$/u, 'A detection name is one line of text.');

/** The per-folder options, without defaults: a patch must never fill in values it was not given. */
const watchedFolderOptions = {
  recursive: z.boolean(),
  ignore: z.array(z.string().max(512)).max(200),
  paused: z.boolean(),
  scanExisting: z.boolean(),
  /** What happens to a threat found in this folder (issue 8). */
  threatAction: threatActionSchema,
  /** This folder's own exclusions, on top of the global ones; replaced whole. */
  exclusions: exclusionRulesSchema,
  /** Overrides the global limit for automatic scans; null: the global one. */
  maxAutoScanSize: maxAutoScanSizeSchema,
  /**
   * Which service scans every file under this folder, however it was handed in: `default` (the
   * settings' backend), `local` (the built-in engine: the files never leave the machine) or `remote`.
   */
  backend: folderBackendSchema,
};

export const watchedFolderSchema = z.object({
  id: z.string(),
  path: z.string().min(1),
  recursive: watchedFolderOptions.recursive.default(true),
  ignore: watchedFolderOptions.ignore.default([]),
  paused: watchedFolderOptions.paused.default(false),
  scanExisting: watchedFolderOptions.scanExisting.default(false),
  threatAction: watchedFolderOptions.threatAction.default('notify'),
  exclusions: watchedFolderOptions.exclusions.prefault({}),
  maxAutoScanSize: watchedFolderOptions.maxAutoScanSize.default(null),
  backend: watchedFolderOptions.backend.default('default'),
});
export type WatchedFolder = z.infer<typeof watchedFolderSchema>;

/** A change to one watched folder's options (its id and path never change). */
export const watchedFolderPatchSchema = z.object(watchedFolderOptions).partial().strict();
export type WatchedFolderPatch = z.infer<typeof watchedFolderPatchSchema>;

/** A remote base URL: http(s) only, no credentials, no query or fragment. */
export const baseUrlSchema = z.string().superRefine((value, context) => {
  const problem = baseUrlProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: BASE_URL_PROBLEM_TEXT[problem] });
});

export const backendSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('remote'), baseUrl: baseUrlSchema }),
]);
export type Backend = z.infer<typeof backendSchema>;

/** The fields the renderer may change, without defaults (see settingsPatchSchema). */
const userPreferences = {
  language: z.enum(['system', 'en', 'de']),
  backend: backendSchema,
  /**
   * The remote service's base URL, kept while the default backend is the local one, so folders set to
   * `remote` know where to send. Setting a remote `backend` sets it too.
   */
  remoteBaseUrl: baseUrlSchema.nullable(),
  mode: modeChoiceSchema,
  /** Reuse a verdict for identical content scanned within this many days (0: never reuse). */
  reuseVerdictDays: z.number().int().min(0).max(3650),
  notifyClean: z.boolean(),
  /** For manual scans (drop, dialog, opened with Verdict, command line). */
  threatAction: threatActionSchema,
  /** Global exclusions (manual scans and every watched folder); replaced whole. */
  exclusions: exclusionRulesSchema,
  maxAutoScanSize: maxAutoScanSizeSchema,
  confirmRemoteUploads: z.boolean(),
  remoteUploadConsentHosts: z.array(consentOriginSchema).max(100),
  /** Replaced whole: `{}` keeps history until it is cleared. */
  historyRetention: historyRetentionSchema,
  /** Start Verdict hidden, with only the tray, when the user logs in (watched folders are protected only while it runs). */
  startAtLogin: z.boolean(),
  /** The offer to start at login, made once when the first folder is watched, was answered. */
  startAtLoginOffered: z.boolean(),
  /** When quick and full scans run by themselves (issue 16); replaced whole. */
  scanSchedules: scanSchedulesSchema,
  /**
   * The signature folder for Verdict's own clamd; null: `<data dir>/clamav-db` when it holds a
   * database, else the system's. Taken when the built-in service starts.
   */
  clamavDatabaseDir: z.string().min(1).max(4096).nullable(),
  /** Update Verdict's own signatures at start and every 12 hours (only while Verdict's own database is in use). */
  autoUpdateSignatures: z.boolean(),
  /** Start Verdict's own clamd when the built-in service starts and none answers (taken at the next start). */
  startOwnClamd: z.boolean(),
  /** Which clamd: the usual order, only Verdict's own, only the system's, or a named one (taken when the built-in service starts). */
  clamd: clamdChoiceSchema,
  /** After each signature change, files first seen within this many days and judged clean before are judged again (0: off; issue 27 §1). */
  recheckAfterUpdateDays: z.number().int().min(0).max(365),
  /** What Verdict's own clamd detects and its scan limits (issue 28 §2); replaced whole; a change restarts it. */
  detection: detectionSettingsSchema,
  /** Removable drives: ask, scan or never, a size cap, and drives always scanned (issue 29 §2); replaced whole. */
  drives: driveSettingsSchema,
};

export const settingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
  language: userPreferences.language.default('system'),
  backend: userPreferences.backend.default({ kind: 'local' }),
  remoteBaseUrl: userPreferences.remoteBaseUrl.default(null),
  mode: userPreferences.mode.default('auto'),
  reuseVerdictDays: userPreferences.reuseVerdictDays.default(30),
  notifyClean: userPreferences.notifyClean.default(false),
  watchingPaused: z.boolean().default(false),
  watchedFolders: z.array(watchedFolderSchema).max(100).default([]),
  startAtLogin: userPreferences.startAtLogin.default(false),
  startAtLoginOffered: userPreferences.startAtLoginOffered.default(false),
  scanSchedules: userPreferences.scanSchedules.prefault({}),
  clamavDatabaseDir: userPreferences.clamavDatabaseDir.default(null),
  autoUpdateSignatures: userPreferences.autoUpdateSignatures.default(true),
  startOwnClamd: userPreferences.startOwnClamd.default(true),
  clamd: userPreferences.clamd.default({ kind: 'auto' }),
  detection: detectionSettingsFieldSchema.prefault({}),
  recheckAfterUpdateDays: userPreferences.recheckAfterUpdateDays.default(14),
  drives: userPreferences.drives.prefault({}),
  /**
   * Detection names the user allows: a verdict whose every finding has one of them reads "allowed
   * (by detection name)". Not in the patch: changed only through the core's allow-name actions,
   * which keep the history's records in step.
   */
  allowedDetectionNames: z.array(detectionNameSchema).max(1000).default([]),
  // Every protection field has a default, so settings files written before issue 8 parse unchanged.
  ...protectionSettingsShape,
});
export type Settings = z.infer<typeof settingsSchema>;

/** What the renderer may change in one call (the key has its own call). */
export const settingsPatchSchema = z.object(userPreferences).partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings = (): Settings => settingsSchema.parse({});
