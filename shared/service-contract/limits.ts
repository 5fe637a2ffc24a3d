// The File Scanning Service's limits (spec section 8), named once for the
// service, the client and the UI.

export const MB = 1024 * 1024;

/** Largest file accepted by POST /file-scans (100 MB, binary megabytes). */
export const MAX_ASYNC_FILE_SIZE = 100 * MB;

/** Largest file accepted by POST /file-scans/sync (10 MB). */
export const MAX_SYNC_FILE_SIZE = 10 * MB;

/** How long a sync submission waits for a terminal result before 408. */
export const SYNC_WINDOW_MS = 90_000;

export const EXTERNAL_REFERENCE_MAX_LENGTH = 255;

/** Letters, digits and `. _ : / # @ -` (spec 2.3). */
export const EXTERNAL_REFERENCE_PATTERN = /^[A-Za-z0-9._:/#@-]+$/;

export const SUPPORTED_LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
