// `verdict allow-name NAME | --remove NAME | --list`: the detection names the user allows
// (issue 28 §1), as Defender's `mdatp threat allowed add --name`. The same core actions as the
// window's, so the history's records change with the list.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';
import { detectionNameSchema } from '../../shared/settings/settings.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import { createCore } from '../core/create-core.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import { dataDirLanguage } from './cli-language.ts';
import { CliExit, runCli, type CliIo } from './cli-options.ts';

export const ALLOW_NAME_USAGE = `Usage: verdict allow-name [options] NAME
       verdict allow-name --remove NAME
       verdict allow-name --list

Allows a detection name, exactly as a scan reports it (e.g. Win.Tool.Foo-123): a file whose every
finding has an allowed name reads ALLOWED (detection allowed by you), is not quarantined and no threat
is notified, whichever engine or service judged it. Threats in the history it now covers read allowed
too; files in quarantine stay there. A file with one finding not allowed stays a threat.

Options:
  --remove             take NAME off the list: the files it allowed read as threats again
  --list               the allowed names, one a line
  --json               one JSON object: {"names": [...], "changed": N}
  --data-dir DIR       history and settings (default: ${defaultDataDir()})
  -h, --help           this text

Exit codes: 0 done; 1 NAME is not on the list (--remove) or the list could not be saved; 2 bad arguments
or Verdict could not start.`;

interface AllowNameTexts {
  allowed(name: string, changed: number): string;
  removed(name: string, changed: number): string;
  none: string;
}

const TEXTS: Record<Language, AllowNameTexts> = {
  en: {
    allowed: (name, changed) => `Allowed "${name}": ${changed === 1 ? '1 file in the history now reads' : `${changed} files in the history now read`} allowed.`,
    removed: (name, changed) => `Removed "${name}": ${changed === 1 ? '1 file in the history reads as a threat' : `${changed} files in the history read as threats`} again.`,
    none: 'No detection name is allowed.',
  },
  de: {
    allowed: (name, changed) => `„${name}“ zugelassen: ${changed} ${changed === 1 ? 'Datei' : 'Dateien'} im Verlauf gelten jetzt als zugelassen.`,
    removed: (name, changed) => `„${name}“ entfernt: ${changed} ${changed === 1 ? 'Datei gilt' : 'Dateien gelten'} im Verlauf wieder als Bedrohung.`,
    none: 'Kein Erkennungsname ist zugelassen.',
  },
};

const OPTIONS = {
  remove: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function runAllowName(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => allowName(argv, io));
}

/** The arguments, checked: one name unless --list; the name as the window's IPC checks it. */
function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${ALLOW_NAME_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new CliExit(ALLOW_NAME_USAGE, 0);
  if (values.list && (values.remove || positionals.length > 0)) throw new CliExit(`--list takes no name.\n\n${ALLOW_NAME_USAGE}`);
  if (!values.list && positionals.length !== 1) throw new CliExit(`Give one detection name.\n\n${ALLOW_NAME_USAGE}`);
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') throw new CliExit(`--data-dir needs a folder.\n\n${ALLOW_NAME_USAGE}`);
  const name = values.list ? null : detectionNameSchema.safeParse(positionals[0]);
  if (name && !name.success) throw new CliExit(`Not a detection name: ${z.prettifyError(name.error)}`);
  return { values, name: name?.data ?? null };
}

async function allowName(argv: string[], io: CliIo): Promise<number> {
  const { values, name } = parse(argv);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));
  const texts = TEXTS[dataDirLanguage(dataDir, io.env)];
  let core;
  try {
    core = await createCore({ dataDir, keychainService: io.env.VERDICT_KEYCHAIN_SERVICE || undefined, secrets: io.secrets }, { watch: false, schedules: false });
  } catch (error) {
    throw new CliExit(`Could not start: ${(error as Error).message}`);
  }
  try {
    if (name === null) {
      const listed = await core.quarantine.allowedNames();
      if (!listed.ok) throw new CliExit(listed.error.message, 1);
      if (values.json) io.stdout(JSON.stringify({ names: listed.value }));
      else if (listed.value.length === 0) io.stderr(texts.none);
      else for (const allowed of listed.value) io.stdout(allowed);
      return 0;
    }
    const outcome = values.remove ? await core.quarantine.revokeAllowedName(name) : await core.quarantine.allowName(name);
    if (!outcome.ok) throw new CliExit(outcome.error.message, 1);
    if (values.json) io.stdout(JSON.stringify(outcome.value));
    else io.stdout((values.remove ? texts.removed : texts.allowed)(name, outcome.value.changed));
    return 0;
  } finally {
    await core.close();
  }
}
