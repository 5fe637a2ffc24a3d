// Timestamps as the spec wants them: ISO 8601, UTC, milliseconds.

export const isoNow = (): string => new Date().toISOString();
