// The user's settings, persisted as JSON by the main process and validated on
// read. Never holds the API key: that lives in the OS keychain only.
import { z } from 'zod';
import { modeChoiceSchema } from '../scans/record.ts';

export const SETTINGS_VERSION = 1;

export const watchedFolderSchema = z.object({
  id: z.string(),
  path: z.string().min(1),
  recursive: z.boolean().default(true),
  ignore: z.array(z.string().max(512)).max(200).default([]),
  paused: z.boolean().default(false),
  scanExisting: z.boolean().default(false),
});
export type WatchedFolder = z.infer<typeof watchedFolderSchema>;

/** A remote base URL: http(s) only, no credentials, no query or fragment. */
export const baseUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials, query or fragment');

export const backendSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('remote'), baseUrl: baseUrlSchema }),
]);
export type Backend = z.infer<typeof backendSchema>;

export const settingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
  language: z.enum(['system', 'en', 'de']).default('system'),
  backend: backendSchema.default({ kind: 'local' }),
  mode: modeChoiceSchema.default('auto'),
  /** Reuse a verdict for identical content scanned within this many days (0: never reuse). */
  reuseVerdictDays: z.number().int().min(0).max(3650).default(30),
  notifyClean: z.boolean().default(false),
  watchingPaused: z.boolean().default(false),
  watchedFolders: z.array(watchedFolderSchema).max(100).default([]),
});
export type Settings = z.infer<typeof settingsSchema>;

/** What the renderer may change in one call (the key has its own call). */
export const settingsPatchSchema = settingsSchema
  .pick({ language: true, backend: true, mode: true, reuseVerdictDays: true, notifyClean: true })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings = (): Settings => settingsSchema.parse({});
