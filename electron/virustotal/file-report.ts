// The part of a v3 file object (GET /api/v3/files/{id}) Verdict reads: the last
// analysis's counts and date. Loose: VirusTotal's many other fields are ignored,
// and a missing count reads 0.
import { z } from 'zod';
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';

const count = z.number().int().min(0).catch(0);

const fileObjectSchema = z.object({
  data: z.object({
    attributes: z.object({
      last_analysis_stats: z
        .object({ malicious: count, suspicious: count, undetected: count, harmless: count })
        .partial()
        .optional()
        .catch(undefined),
      /** Unix seconds; a date that is not one reads as none. */
      last_analysis_date: z.number().int().positive().optional().catch(undefined),
    }),
  }),
});

/** The answer a 200 body gives, or null when it is not a file object. */
export function answerFromFileObject(body: unknown): Extract<VirusTotalAnswer, { kind: 'known' }> | null {
  const parsed = fileObjectSchema.safeParse(body);
  if (!parsed.success) return null;
  const { last_analysis_stats: stats = {}, last_analysis_date: date } = parsed.data.data.attributes;
  const malicious = stats.malicious ?? 0;
  const suspicious = stats.suspicious ?? 0;
  const engines = malicious + suspicious + (stats.undetected ?? 0) + (stats.harmless ?? 0);
  const analysedAt = date !== undefined && date * 1000 <= 8.64e15 ? new Date(date * 1000).toISOString() : null;
  return { kind: 'known', malicious, suspicious, engines, analysedAt };
}

const errorSchema = z.object({ error: z.object({ code: z.string().max(100) }) });

/** VirusTotal's error code (e.g. `NotFoundError`, `QuotaExceededError`), if the body carries one. */
export function errorCodeOf(body: unknown): string | null {
  const parsed = errorSchema.safeParse(body);
  return parsed.success && /^[A-Za-z]+$/.test(parsed.data.error.code) ? parsed.data.error.code : null;
}
