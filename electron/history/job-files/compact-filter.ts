// A history query's WHERE for the compact store (job_clean_files AS c): its job, and a search
// by part of the file name or the start of a digest, matched as query-filter.ts matches the
// scans rows (LIKE on the name; a hex prefix of sha256, sha1 or md5), so both stores answer alike.
import type { SQLInputValue } from 'node:sqlite';
import { COMPACT_DIGEST_PREFIX_BYTES } from '../migrations.ts';
import { BASIC_ONLY_SQL, escapeLike, usesNameIndex, type ParsedHistoryQuery } from '../query-filter.ts';

const HEX = /^[0-9a-f]{1,64}$/;

export interface CompactFilter {
  where: string;
  params: SQLInputValue[];
  orderBy: string;
}

/** Whether a query asks for rows a compact file can be: completed, clean (or basic checks only), of a job, and not the main list (jobRows 'threats'). */
export function includesCompacted(query: Pick<ParsedHistoryQuery, 'statuses' | 'verdicts' | 'pendingReasons' | 'jobRows'>): boolean {
  const allows = <T>(list: readonly T[] | undefined, value: T) => !list || list.length === 0 || list.includes(value);
  const clean = allows(query.verdicts, 'safe') || allows(query.verdicts, 'basic-only');
  return query.jobRows !== 'threats' && allows(query.statuses, 'completed') && clean && (query.pendingReasons ?? []).length === 0;
}

/** The BLOB range of the digests of `bytes` bytes whose hex starts with `prefix`: [prefix 0…0, prefix f…f]. */
export function blobRange(prefix: string, bytes: number): [Buffer, Buffer] {
  const chars = Math.min(prefix.length, bytes * 2);
  const head = prefix.slice(0, chars);
  return [Buffer.from(head.padEnd(bytes * 2, '0'), 'hex'), Buffer.from(head.padEnd(bytes * 2, 'f'), 'hex')];
}

function digestMatches(hex: string): { sql: string; params: SQLInputValue[] } {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  if (hex.length <= 64) {
    parts.push('SELECT id FROM job_clean_files WHERE sha256 BETWEEN ? AND ?');
    params.push(...blobRange(hex, 32));
  }
  // md5 and sha1 are indexed by their first bytes: that range, then the whole digest.
  for (const [column, bytes] of [['sha1', 20], ['md5', 16]] as const) {
    if (hex.length > bytes * 2) continue;
    const head = `substr(${column}, 1, ${COMPACT_DIGEST_PREFIX_BYTES})`;
    parts.push(`SELECT id FROM job_clean_files WHERE ${head} BETWEEN ? AND ? AND ${column} BETWEEN ? AND ?`);
    params.push(...blobRange(hex, COMPACT_DIGEST_PREFIX_BYTES), ...blobRange(hex, bytes));
  }
  return { sql: parts.join(' UNION '), params };
}

/** `nameCandidates`: start from the trigram index's few candidates (ids of the files whose names may match), see compact-names.ts. */
export function compactFilter(query: Pick<ParsedHistoryQuery, 'job' | 'search' | 'order' | 'verdicts'>, nameCandidates: readonly number[] | null): CompactFilter {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  if (query.job !== undefined) {
    clauses.push('c.job_id = ?');
    params.push(query.job);
  }
  // Every compact file is a clean answer: asked for one of 'safe' and 'basic-only', its kind's engine tells which.
  const verdicts = query.verdicts ?? [];
  const safe = verdicts.length === 0 || verdicts.includes('safe');
  const basic = verdicts.length === 0 || verdicts.includes('basic-only');
  if (safe !== basic) clauses.push(`c.kind_id ${basic ? '' : 'NOT '}IN (SELECT id FROM job_file_kinds WHERE ${BASIC_ONLY_SQL})`);
  const search = query.search?.trim() ?? '';
  if (search.includes('\0')) clauses.push('0');
  else if (search !== '') {
    const hex = search.toLowerCase();
    const digests = HEX.test(hex) ? digestMatches(hex) : null;
    if (nameCandidates !== null && usesNameIndex(search)) {
      clauses.push(`c.id IN (${['SELECT value FROM json_each(?)', ...(digests ? [digests.sql] : [])].join(' UNION ')})`);
      params.push(JSON.stringify(nameCandidates), ...(digests?.params ?? []));
    }
    const confirm = [`coalesce(c.file_name, c.name) LIKE ? ESCAPE '\\'`];
    params.push(`%${escapeLike(search)}%`);
    if (digests) {
      confirm.push(`c.id IN (${digests.sql})`);
      params.push(...digests.params);
    }
    clauses.push(confirm.length > 1 ? `(${confirm.join(' OR ')})` : confirm[0]!);
  }
  const direction = query.order === 'oldest' ? 'ASC' : 'DESC';
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params, orderBy: `ORDER BY c.queued_ms ${direction}, c.id ${direction}` };
}
