// `--clamd unix:PATH|tcp:HOST:PORT` on `scan`, `watch`, `status` and `service`: the address, or
// the sentence (en/de) that says what is wrong with it; the CLIs exit with 2 on it.
import { parseClamdAddress, type ClamdAddress } from '../../shared/engine/clamd-address.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { clamdAddressProblemText } from './clamd-words.ts';

export const CLAMD_USAGE = `  --clamd ADDRESS      the clamd to use: unix:/path/to/clamd.sock or tcp:HOST:PORT (a clamav container: tcp:127.0.0.1:3310);
                       default: the settings' choice (Verdict's own, the system's, or the one named there)`;

export type ClamdOption = { ok: true; address: ClamdAddress | undefined } | { ok: false; message: string };

export function readClamdOption(value: string | undefined, language: Language): ClamdOption {
  if (value === undefined) return { ok: true, address: undefined };
  const parsed = parseClamdAddress(value);
  return parsed.ok ? { ok: true, address: parsed.value } : { ok: false, message: clamdAddressProblemText(value, parsed.error.params, language) };
}
