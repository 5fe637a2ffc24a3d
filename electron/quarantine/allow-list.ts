// The allow-list: content the user chose to keep is not flagged again. Filled by allow
// (restore-entry.ts) and by allowContent for a file the user kept without quarantine.
import type { AllowedContent } from '../../shared/quarantine/entry.ts';
import { ok, type Result } from '../../shared/result.ts';
import { fail } from './quarantine-errors.ts';
import { validSha256 } from './quarantine-file.ts';
import type { QuarantineVault } from './quarantine-vault.ts';

export function allowContent(vault: QuarantineVault, content: { sha256: string; fileName: string; recordId?: string | null }): Result<AllowedContent> {
  const sha256 = validSha256(content);
  if (sha256 === null) return fail('invalid_request', 'A sha256 (64 hex digits) is needed.');
  const allowed: AllowedContent = { sha256, fileName: String(content.fileName ?? ''), allowedAt: vault.now(), entryId: null, recordId: content.recordId ?? null };
  vault.store.allow(allowed);
  return ok(allowed);
}

export const isAllowed = (vault: QuarantineVault, sha256: string): boolean => typeof sha256 === 'string' && vault.store.isAllowed(sha256);

export const revokeAllowed = (vault: QuarantineVault, sha256: string): boolean => typeof sha256 === 'string' && vault.store.revokeAllowed(sha256);
