// `verdict feeds [list] | add URL [--name NAME] | on ID | off ID | remove ID | update`: the extra
// signature feeds of Verdict's own clamd (issue 28 §3), on the data directory's files as
// `verdict update` works (no core needed). Switching a feed off takes its files out and reloads
// Verdict's own clamd at once. Exit 0 done; 1 a feed failed, or no such feed; 2 bad arguments.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { feedView, type FeedView } from '../../shared/feeds/feed.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { addFeed, removeFeed, setFeedEnabled, type FeedChange } from '../feeds/feed-changes.ts';
import { readFeedsState } from '../feeds/feeds-state.ts';
import { reloadOwnClamd } from '../feeds/reload-own-clamd.ts';
import { feedsBlocked, updateFeeds, type FeedsUpdateReport } from '../feeds/update-feeds.ts';
import { dataDirLanguage } from './cli-language.ts';
import { CliExit, runCli, type CliIo } from './cli-options.ts';
import { feedsTexts, type FeedsTexts } from './feeds-text.ts';

export const FEEDS_USAGE = `Usage: verdict feeds [list]              the feeds, on or off, with their health
       verdict feeds add URL [--name NAME]  a ClamAV database file (.ndb, .hdb, .hsb, .ldb, .cdb, .yar, ...) of your choice
       verdict feeds on ID | off ID       switch a feed on (fetched at the next update) or off (its signatures go now)
       verdict feeds remove ID            remove a feed you added
       verdict feeds update               fetch the feeds that are on (also done after each "verdict update")

Extra signatures for Verdict's own clamd, fetched by Verdict into <data dir>/clamav-db. A download replaces
the feed's file only once it loads on its own (clamscan); a feed that fails keeps its last good files.

Options:
  --json               one JSON object on stdout
  --name NAME          (add) the feed's name
  --data-dir DIR       Verdict's data directory (default: ${defaultDataDir()})
  -h, --help           this text

Exit codes: 0 done; 1 a feed could not be updated, or no such feed; 2 bad arguments.`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  name: { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const ACTIONS = { list: 0, add: 1, on: 1, off: 1, remove: 1, update: 0 } as const;
type Action = keyof typeof ACTIONS;

export function runFeeds(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => feeds(argv, io));
}

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${FEEDS_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new CliExit(FEEDS_USAGE, 0);
  const [word = 'list', ...rest] = positionals;
  if (!Object.hasOwn(ACTIONS, word)) throw new CliExit(`Unknown feeds command: ${word}\n\n${FEEDS_USAGE}`);
  const action = word as Action;
  if (rest.length !== ACTIONS[action]) throw new CliExit(`${action} takes ${ACTIONS[action] === 1 ? 'one argument' : 'no argument'}.\n\n${FEEDS_USAGE}`);
  if (values.name !== undefined && action !== 'add') throw new CliExit(`--name goes with add.\n\n${FEEDS_USAGE}`);
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') throw new CliExit(`--data-dir needs a folder.\n\n${FEEDS_USAGE}`);
  return { values, action, argument: rest[0] ?? '' };
}

async function feeds(argv: string[], io: CliIo): Promise<number> {
  const { values, action, argument } = parse(argv);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));
  const texts = feedsTexts(dataDirLanguage(dataDir, io.env));
  const out = (json: unknown, lines: () => string[]) => {
    if (values.json) io.stdout(JSON.stringify(json));
    else for (const line of lines()) io.stdout(line);
  };
  switch (action) {
    case 'list': {
      const state = readFeedsState(dataDir);
      const list = state.feeds.map(feedView);
      const blocked = feedsBlocked(state);
      out({ databaseDir: state.databaseDir, blocked, feeds: list }, () => [...list.flatMap((feed) => feedLines(feed, texts)), ...(blocked ? [texts.blocked(state.databaseDir)] : [])]);
      return 0;
    }
    case 'add': {
      const added = changed(addFeed(dataDir, argument, values.name), texts);
      out({ feed: feedView(added.feed) }, () => [texts.added(feedView(added.feed))]);
      return 0;
    }
    case 'on':
    case 'off':
    case 'remove': {
      const done = changed(action === 'remove' ? removeFeed(dataDir, argument) : setFeedEnabled(dataDir, argument, action === 'on'), texts);
      // Its files are out of the folder: the signatures go with a RELOAD now, not at the next update.
      const reload = done.filesRemoved > 0 ? await reloadOwnClamd(dataDir).catch((error: unknown) => ({ error: (error as Error).message })) : 'not_needed';
      const view = feedView(done.feed);
      out({ feed: view, filesRemoved: done.filesRemoved, reload }, () => [action === 'remove' ? texts.removed(view.id) : texts.switched(view, done.filesRemoved), ...reloadLines(reload, texts)]);
      return typeof reload === 'object' ? 1 : 0;
    }
    case 'update': {
      const report = await updateFeeds(dataDir, { onProgress: (line) => void (values.json ? undefined : io.stderr(`  ${line}`)) });
      const state = readFeedsState(dataDir);
      out(report, () => [
        ...report.feeds.filter((feed) => feed.enabled).flatMap((feed) => feedLines(feed, texts)),
        ...(report.blocked === 'busy' ? [texts.busy] : report.blocked ? [texts.blocked(state.databaseDir)] : [texts.updated(report.changed, report.failed)]),
        ...reloadLines(report.reload, texts),
      ]);
      return report.failed.length > 0 || report.blocked !== null || typeof report.reload === 'object' ? 1 : 0;
    }
  }
}

function changed(change: FeedChange, texts: FeedsTexts): Extract<FeedChange, { ok: true }> {
  if (change.ok) return change;
  const { error } = change;
  if (error.code === 'invalid_url') throw new CliExit(texts.urlProblem(error.problem, error.detail), 2);
  if (error.code === 'not_found') throw new CliExit(texts.notFound(error.detail), 1);
  if (error.code === 'preset') throw new CliExit(texts.presetKept(error.detail), 1);
  throw new CliExit(texts.alreadyAdded(error.detail), 1);
}

function feedLines(feed: FeedView, texts: FeedsTexts): string[] {
  const error = feed.health.lastError;
  return [texts.feedLine(feed), ...(feed.licence ? [texts.licence(feed.licence)] : []), ...(error ? [texts.lastError(error.code, error.detail, error.url)] : [])];
}

function reloadLines(reload: FeedsUpdateReport['reload'], texts: FeedsTexts): string[] {
  if (reload === 'reloaded') return [texts.reloaded];
  if (reload === 'not_running') return [texts.notRunning];
  if (typeof reload === 'object') return [texts.reloadFailed(reload.error)];
  return [];
}
