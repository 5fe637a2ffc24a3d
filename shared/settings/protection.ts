// Settings for threat response and privacy (issue 8): what to do with an unsafe
// file, what never to scan, how large a file is scanned automatically, when to
// ask before a file leaves the machine, and how long history is kept.
// Written as zod *shapes* so settings.ts can spread them into its schemas:
// every field has a default, so settings files written before these existed
// still parse (and are only changed when the user changes something).
import { z } from 'zod';
import { MAX_ASYNC_FILE_SIZE } from '../service-contract/limits.ts';

/** What happens after an unsafe verdict. Nothing is ever deleted automatically. */
export const threatActionSchema = z.enum(['notify', 'quarantine']);
export type ThreatAction = z.infer<typeof threatActionSchema>;

const rule = z.string().trim().min(1).max(4096);

/**
 * Files never scanned; each is listed as `skipped` with the rule that matched.
 * - paths: a file, or a folder with everything in it (absolute, or `~/…`; in a
 *   watched folder's rules also relative to that folder).
 * - globs: `*.iso`, `node_modules` (no `/`: a name at any depth), `build/**`,
 *   `/home/*\/private/**` (with `/`: from the folder's top, or absolute).
 * - extensions: `iso`, `.ISO`, `tar.gz` (case-insensitive, with or without the dot).
 */
export const exclusionRulesSchema = z.object({
  paths: z.array(rule).max(500).default([]),
  globs: z.array(rule.max(1024)).max(500).default([]),
  extensions: z
    .array(
      z
        .string()
        .trim()
        .max(64)
        .regex(/^\.?[^./\\\s][^/\\\s]*$/, 'an extension such as "iso" or ".tar.gz" (no spaces or slashes)'),
    )
    .max(500)
    .default([]),
});
export type ExclusionRules = z.infer<typeof exclusionRulesSchema>;
export const emptyExclusions = (): ExclusionRules => ({ paths: [], globs: [], extensions: [] });

/** Bytes; files larger than this are not scanned automatically (watched folders). null: no limit below the service's own. */
export const maxAutoScanSizeSchema = z.number().int().min(1).max(MAX_ASYNC_FILE_SIZE).nullable();

/** An origin the user agreed to upload to without being asked again, e.g. `https://scan.example.com`. */
export const consentOriginSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://scan.example.com');

/** Both unset: history is kept until the user clears it. Both set: whichever removes more. */
export const historyRetentionSchema = z
  .object({
    keepDays: z.number().int().min(1).max(36_500).optional(),
    keepScans: z.number().int().min(1).max(10_000_000).optional(),
  })
  .strict();
export type HistoryRetention = z.infer<typeof historyRetentionSchema>;

/**
 * Which backend scans a watched folder's files. `default`: the one in the
 * settings; `local`: the embedded engine even when a remote service is set, so
 * the files never leave the machine; `remote`: the configured remote service.
 */
export const folderBackendSchema = z.enum(['default', 'local', 'remote']);
export type FolderBackend = z.infer<typeof folderBackendSchema>;

/** Fields to add to settingsSchema (top level). */
export const protectionSettingsShape = {
  /** For manual scans (drop, dialog, second instance, CLI). */
  threatAction: threatActionSchema.default('notify'),
  /** Global exclusions: apply to manual scans and to every watched folder. */
  exclusions: exclusionRulesSchema.prefault({}),
  /** Applies to automatic scans only (watched folders); a manual scan is never refused for its size here. */
  maxAutoScanSize: maxAutoScanSizeSchema.default(null),
  /** Ask before a manual scan uploads files to a remote service. */
  confirmRemoteUploads: z.boolean().default(true),
  /** Origins for which the user chose "don't ask again". */
  remoteUploadConsentHosts: z.array(consentOriginSchema).max(100).default([]),
  historyRetention: historyRetentionSchema.prefault({}),
};

/** Fields to add to watchedFolderSchema. */
export const folderProtectionShape = {
  threatAction: threatActionSchema.default('notify'),
  /** This folder's own exclusions, on top of the global ones. */
  exclusions: exclusionRulesSchema.prefault({}),
  /** Overrides the global maxAutoScanSize for this folder; null: use the global one. */
  maxAutoScanSize: maxAutoScanSizeSchema.default(null),
  backend: folderBackendSchema.default('default'),
};

export const protectionSettingsSchema = z.object(protectionSettingsShape);
export type ProtectionSettings = z.infer<typeof protectionSettingsSchema>;
export const folderProtectionSchema = z.object(folderProtectionShape);
export type FolderProtection = z.infer<typeof folderProtectionSchema>;

/**
 * Whether a manual scan must ask before uploading to `backendOrigin` (null: the
 * local engine, never asks). Pure, so the renderer, the core and tests agree.
 */
export function needsUploadConsent(
  settings: Pick<ProtectionSettings, 'confirmRemoteUploads' | 'remoteUploadConsentHosts'>,
  backendOrigin: string | null,
): boolean {
  if (backendOrigin === null || !settings.confirmRemoteUploads) return false;
  return !settings.remoteUploadConsentHosts.includes(backendOrigin);
}

/** The host shown in "this file will be sent to <host>": the origin's host (with a non-default port). */
export function consentHostLabel(backendOrigin: string): string {
  try {
    return new URL(backendOrigin).host;
  } catch {
    return backendOrigin;
  }
}
