// Digests kept as BLOBs (the compact store, the unchanged-file memory): half the bytes of their hex,
// and only lowercase hex goes in, so what comes out (lowercase) is what went in.

/** Null, or lowercase hex of exactly `chars` characters. */
export const lowerHex = (value: string | null, chars: number): boolean => value === null || (value.length === chars && /^[0-9a-f]+$/.test(value));

/** Lowercase hex as the BLOB unhex() gives (the caller has checked lowerHex); null stays null. */
export const blobOf = (hex: string | null): Uint8Array | null => (hex === null ? null : Buffer.from(hex, 'hex'));

/** A BLOB read back as lowercase hex; null stays null. */
export const hexOf = (blob: Uint8Array | null): string | null => (blob === null ? null : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('hex'));
