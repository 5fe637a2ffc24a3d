// The user's own YARA rules (issue 28 §4) in Verdict's own database folder, for its own clamd:
// `verdict-user-rules.yar` holds every accepted rule, written whole and checked to load (clamscan,
// as feeds are) before it replaces the one before, then clamd reloads. `<data dir>/yara-rules.json`
// says where each rule came from (file and line), for the list and for findings.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { checkFeedFile, findClamscan } from '../feeds/check-feed-file.ts';
import { reloadOwnClamd, type ReloadOutcome } from '../feeds/reload-own-clamd.ts';
import { checkDatabaseDir, ownDatabaseDir } from '../engine/own-clamd/find-clamav.ts';
import { FEED_FILE_PREFIX } from '../feeds/feeds-state.ts';
import { writeFileAtomic } from '../settings/atomic-write.ts';
import { checkYaraRules, type AcceptedRule, type RulesCheck } from './check-rules.ts';

export const RULES_FILE = 'verdict-user-rules.yar';
const INDEX_FILE = 'yara-rules.json';

const indexSchema = z.object({ rules: z.array(z.object({ name: z.string(), file: z.string(), line: z.number().int(), text: z.string() })) });

export type InstalledRule = AcceptedRule;

export class RulesUnavailableError extends Error {
  readonly code = 'checker_missing';
}

/**
 * Rules go into Verdict's own folder only beside a database of its own (the official one, or the
 * user's), as feeds do: rules alone there would make Verdict's own clamd load that folder instead
 * of the system's, with the rules only.
 */
export class RulesBlockedError extends Error {
  readonly code = 'no_own_database';
}

function ownDatabaseHeld(dataDir: string): boolean {
  const contents = checkDatabaseDir(ownDatabaseDir(dataDir));
  return contents.ok && contents.files.some((file) => file !== RULES_FILE && !file.startsWith(FEED_FILE_PREFIX));
}

export function installedRules(dataDir: string): InstalledRule[] {
  try {
    const parsed = indexSchema.safeParse(JSON.parse(readFileSync(join(dataDir, INDEX_FILE), 'utf8')));
    return parsed.success ? parsed.data.rules : [];
  } catch {
    return [];
  }
}

export interface ImportOutcome extends RulesCheck {
  reload: ReloadOutcome;
}

/** Checks each rule; the accepted ones join those installed (a file imported again replaces its rules). */
export async function importRules(dataDir: string, sources: readonly { file: string; text: string }[], workDir: string): Promise<ImportOutcome> {
  const clamscan = findClamscan();
  if (clamscan === null) throw new RulesUnavailableError('no clamscan on PATH or beside clamd: ClamAV cannot check the rules');
  if (!ownDatabaseHeld(dataDir)) throw new RulesBlockedError(`${ownDatabaseDir(dataDir)} holds no signatures of its own (verdict update puts ClamAV's there): rules alone would replace the system's signatures`);
  const files = new Set(sources.map((source) => source.file));
  const kept = installedRules(dataDir).filter((rule) => !files.has(rule.file));
  const check = await checkYaraRules(sources, { clamscan, workDir, installed: new Set(kept.map((rule) => rule.name)) });
  const reload = check.accepted.length > 0 || kept.length !== installedRules(dataDir).length ? await install(dataDir, [...kept, ...check.accepted], { clamscan, workDir }) : 'not_running';
  return { ...check, reload };
}

/** Removes rules by name or by the file they came from; the names removed. */
export async function removeRules(dataDir: string, which: { name?: string; file?: string }, workDir: string): Promise<{ removed: string[]; reload: ReloadOutcome }> {
  const before = installedRules(dataDir);
  const after = before.filter((rule) => rule.name !== which.name && rule.file !== which.file);
  if (after.length === before.length) return { removed: [], reload: 'not_running' };
  const reload = await install(dataDir, after, { clamscan: findClamscan(), workDir });
  return { removed: before.filter((rule) => !after.includes(rule)).map((rule) => rule.name), reload };
}

/** Writes the rules file (checked to load as a whole first), the index, then reloads Verdict's own clamd. */
async function install(dataDir: string, rules: readonly InstalledRule[], input: { clamscan: string | null; workDir: string }): Promise<ReloadOutcome> {
  const folder = ownDatabaseDir(dataDir);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const target = join(folder, RULES_FILE);
  if (rules.length === 0) {
    rmSync(target, { force: true });
  } else {
    const text = rules.map((rule) => `// ${JSON.stringify(rule.file)} line ${rule.line}\n${rule.text}\n`).join('\n');
    // Checked as a whole outside the folder clamd loads; it replaces the old file (atomically) only once it loads.
    const checkedCopy = join(input.workDir, `verdict-rules-${process.pid}.yar`);
    await writeFileAtomic(checkedCopy, text);
    const loads = await checkFeedFile(checkedCopy, { clamscan: input.clamscan, workDir: input.workDir });
    rmSync(checkedCopy, { force: true });
    if (!loads.ok) throw new Error(`the rules do not load together: ${loads.detail}`);
    await writeFileAtomic(target, text, { mode: 0o644 });
  }
  await writeFileAtomic(join(dataDir, INDEX_FILE), `${JSON.stringify({ rules }, null, 1)}\n`);
  return reloadOwnClamd(dataDir);
}
