// `verdict update` (`npm run -s update`): Verdict's own freshclam into Verdict's own
// signature folder, freshclam's lines on stderr as it goes, then one sentence of
// Verdict's own with freshclam's words under it. When Verdict's own clamd runs from
// that folder (another Verdict process), it reloads. Exit 0 current, 1 failed, 2 bad arguments.
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/data-dir.ts';
import { FRESHCLAM_EXTRA_FILE } from '../engine/freshclam/freshclam-config.ts';
import { updateSignatures, type UpdateSignaturesResult } from '../engine/freshclam/run-freshclam.ts';
import { clamdAnswers, clamdReload } from '../engine/own-clamd/clamd-commands.ts';
import { ownClamdFiles } from '../engine/own-clamd/clamd-config.ts';
import { ownDatabaseDir } from '../engine/own-clamd/find-clamav.ts';
import { parseClamdConf } from '../engine/conf/system-clamd-conf.ts';
import { dataDirLanguage } from './cli-language.ts';
import { updateTexts, type UpdateTexts } from './update-text.ts';
import { feedsTexts } from './feeds-text.ts';
import { updateFeeds } from '../feeds/update-feeds.ts';

export interface UpdateIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

export const UPDATE_USAGE = `Usage: verdict update [options]   (in a checkout: npm run -s update -- [options])

Downloads the ClamAV signatures with freshclam into Verdict's own signature folder
(<data dir>/clamav-db), which Verdict's own clamd loads. The system's folder is never touched.
Mirrors, a proxy or extra databases: lines in <data dir>/${FRESHCLAM_EXTRA_FILE}, in freshclam.conf's
words (PrivateMirror, DatabaseMirror, DatabaseCustomURL, ExtraDatabase, ExcludeDatabase, HTTPProxyServer, …).

Options:
  --data-dir DIR       Verdict's data directory (default: ${defaultDataDir()})
  -h, --help           this text

Exit codes: 0 the signatures are current; 1 the update failed; 2 bad arguments.`;

export async function runUpdate(argv: string[], io: UpdateIo): Promise<number> {
  let values: { 'data-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${UPDATE_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout(UPDATE_USAGE);
    return 0;
  }
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') {
    io.stderr(`--data-dir needs a folder.\n\n${UPDATE_USAGE}`);
    return 2;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
  const texts = updateTexts(dataDirLanguage(dataDir, io.env));
  const databaseDir = ownDatabaseDir(dataDir);
  io.stderr(texts.starting(databaseDir));
  const said: string[] = [];
  let reloaded = false;
  const result = await updateSignatures({
    dataDir,
    onProgress: (line) => {
      io.stderr(`  ${line}`);
      said.push(line);
    },
    reload: async () => {
      reloaded = await reloadOwnClamd(dataDir);
    },
  });
  const code = report({ result, said, databaseDir, reloaded }, io, texts);
  // The extra signature feeds follow (verdict feeds); their failures are told, freshclam's outcome decides the exit code.
  const feeds = await updateFeeds(dataDir, { onProgress: (line) => io.stderr(`  ${line}`) });
  if (feeds.failed.length > 0) io.stderr(feedsTexts(dataDirLanguage(dataDir, io.env)).updated(feeds.changed, feeds.failed));
  return code;
}

function report(run: { result: UpdateSignaturesResult; said: string[]; databaseDir: string; reloaded: boolean }, io: UpdateIo, texts: UpdateTexts): number {
  const { result, said, databaseDir } = run;
  const ok = result.ok && (result.outcome.kind === 'updated' || result.outcome.kind === 'current');
  const out = ok ? io.stdout : io.stderr;
  out(result.ok ? texts.outcome(result.outcome, databaseDir) : texts.problem(result.problem, result.detail, databaseDir));
  const words = freshclamWords(said, ok);
  if (words.length > 0) {
    out(texts.freshclamSaid);
    for (const line of words) out(`  ${line}`);
  }
  if (run.reloaded) out(texts.reloaded);
  if (result.ok && result.reloadError) io.stderr(texts.reloadFailed(result.reloadError));
  return ok ? 0 : 1;
}

/** freshclam's lines that say what happened to each database; after a failure, its warnings and errors too. */
function freshclamWords(lines: string[], ok: boolean): string[] {
  return lines.filter((line) => /\b(?:updated|up-to-date) \(version: /.test(line) || (!ok && /^(?:ERROR|WARNING):/.test(line)));
}

/**
 * RELOAD for Verdict's own clamd when another Verdict process runs it from this folder.
 * None running is no error: the next clamd loads the new files.
 */
async function reloadOwnClamd(dataDir: string): Promise<boolean> {
  let conf: Map<string, string>;
  try {
    conf = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8'));
  } catch {
    return false;
  }
  const socketPath = conf.get('localsocket');
  const loads = conf.get('databasedirectory');
  if (socketPath === undefined || loads === undefined || !samePath(loads, ownDatabaseDir(dataDir))) return false;
  if (!(await clamdAnswers({ socketPath }, 2_000))) return false;
  await clamdReload({ socketPath });
  return true;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}
