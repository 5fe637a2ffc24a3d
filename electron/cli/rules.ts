// `verdict rules import FILE|FOLDER… | list | remove NAME | remove --file FILE`: the user's own
// YARA rules for Verdict's own clamd (issue 28 §4). Each rule is checked by ClamAV's own loader at
// import; a rule it cannot load is refused with its file, line and why, and never stops the good
// ones. ClamAV has no YARA modules (pe, hash, math…), no includes, and at most 64 strings a rule.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Language } from '../../shared/service-contract/limits.ts';
import { defaultDataDir } from '../core/data-dir.ts';
import type { RefusalCode, RefusedRule } from '../rules/check-rules.ts';
import { importRules, installedRules, removeRules, RulesBlockedError, RulesUnavailableError } from '../rules/rules-store.ts';
import { ruleFiles } from '../rules/rule-files.ts';
import { dataDirLanguage } from './cli-language.ts';
import { CliExit, runCli, type CliIo } from './cli-options.ts';

export const RULES_USAGE = `Usage: verdict rules import FILE|FOLDER...
       verdict rules list
       verdict rules remove NAME | --file FILE

Your own YARA rules, for Verdict's own clamd. Each rule is checked by ClamAV's own loader when it
is imported: a rule ClamAV cannot load is refused with its file, line and why (a syntax error, a
YARA module such as pe, hash or math, which ClamAV does not support, no string ClamAV can match,
more than 64 strings), and the good rules load all the same. A file imported again replaces its
rules. A finding reads YARA: RULE (FILE).

Options:
  --file FILE          (remove) every rule that came from FILE
  --json               one JSON object
  --data-dir DIR       history and settings (default: ${defaultDataDir()})
  -h, --help           this text

Exit codes: 0 done; 1 some rules were refused (the others were imported), or nothing to remove;
2 bad arguments, no rule file, or ClamAV's clamscan is missing.`;

const OPTIONS = {
  file: { type: 'string' },
  json: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

interface RulesTexts {
  accepted: string;
  refused: string;
  why: Record<RefusalCode, string>;
  reloaded: string;
  notRunning: string;
  none: string;
  removed(count: number): string;
  nothingRemoved: string;
  noFiles: string;
  noOwnDatabase: string;
}

const TEXTS: Record<Language, RulesTexts> = {
  en: {
    accepted: 'ACCEPTED',
    refused: 'REFUSED',
    why: {
      syntax: 'ClamAV cannot read it',
      module: 'it uses a YARA module, which ClamAV does not support',
      unsupported: 'ClamAV does not load it (it needs a string ClamAV can match, and at most 64 strings)',
      duplicate: 'a rule of this name is already imported',
      not_a_rule: 'this is not a rule',
      include: 'include is not followed: import that file itself',
    },
    reloaded: "Verdict's own clamd loaded them.",
    notRunning: "Verdict's own clamd loads them when it next starts.",
    none: 'No YARA rules are imported.',
    removed: (count) => `Removed ${count} ${count === 1 ? 'rule' : 'rules'}.`,
    nothingRemoved: 'No such rule is imported.',
    noFiles: 'No YARA file (.yar, .yara) found there.',
    noOwnDatabase: "Verdict's own signature folder has no signatures of its own yet (verdict update puts ClamAV's there): rules alone would replace the system's signatures, so none were imported.",
  },
  de: {
    accepted: 'ANGENOMMEN',
    refused: 'ABGELEHNT',
    why: {
      syntax: 'ClamAV kann sie nicht lesen',
      module: 'sie nutzt ein YARA-Modul, das ClamAV nicht unterstützt',
      unsupported: 'ClamAV lädt sie nicht (sie braucht eine Zeichenfolge, die ClamAV suchen kann, und höchstens 64)',
      duplicate: 'eine Regel dieses Namens ist schon importiert',
      not_a_rule: 'das ist keine Regel',
      include: 'include wird nicht verfolgt: importieren Sie diese Datei selbst',
    },
    reloaded: 'Verdicts eigener clamd hat sie geladen.',
    notRunning: 'Verdicts eigener clamd lädt sie beim nächsten Start.',
    none: 'Keine YARA-Regeln importiert.',
    removed: (count) => `${count} ${count === 1 ? 'Regel' : 'Regeln'} entfernt.`,
    nothingRemoved: 'Keine solche Regel ist importiert.',
    noFiles: 'Dort ist keine YARA-Datei (.yar, .yara).',
    noOwnDatabase: 'Verdicts eigener Signaturordner hat noch keine eigenen Signaturen (verdict update legt ClamAVs dort ab): Regeln allein würden die Signaturen des Systems ersetzen, daher wurde keine importiert.',
  },
};

export function runRules(argv: string[], io: CliIo): Promise<number> {
  return runCli(io, () => rules(argv, io));
}

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new CliExit(`${(error as Error).message}\n\n${RULES_USAGE}`);
  }
  if (parsed.values.help) throw new CliExit(RULES_USAGE, 0);
  const [action, ...rest] = parsed.positionals;
  if (action === 'import' && rest.length > 0) return { values: parsed.values, action, paths: rest } as const;
  if (action === 'list' && rest.length === 0) return { values: parsed.values, action, paths: [] } as const;
  if (action === 'remove' && (rest.length === 1) !== (parsed.values.file !== undefined)) return { values: parsed.values, action, paths: rest } as const;
  throw new CliExit(RULES_USAGE);
}

async function rules(argv: string[], io: CliIo): Promise<number> {
  const { values, action, paths } = parse(argv);
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));
  const texts = TEXTS[dataDirLanguage(dataDir, io.env)];
  if (action === 'list') {
    const listed = installedRules(dataDir).map(({ name, file, line }) => ({ name, file, line }));
    if (values.json) io.stdout(JSON.stringify({ rules: listed }));
    else if (listed.length === 0) io.stderr(texts.none);
    else for (const rule of listed) io.stdout(`${rule.name}  (${rule.file}:${rule.line})`);
    return 0;
  }
  if (action === 'remove') {
    const outcome = await removeRules(dataDir, values.file !== undefined ? { file: resolve(values.file) } : { name: paths[0] ?? '' }, tmpdir());
    if (values.json) io.stdout(JSON.stringify(outcome));
    else io.stdout(outcome.removed.length === 0 ? texts.nothingRemoved : `${texts.removed(outcome.removed.length)} ${outcome.reload === 'reloaded' ? texts.reloaded : ''}`.trim());
    return outcome.removed.length === 0 ? 1 : 0;
  }
  const files = ruleFiles(paths);
  if (files.length === 0) throw new CliExit(texts.noFiles);
  const sources = files.map((file) => {
    try {
      return { file, text: readFileSync(file, 'utf8') };
    } catch (error) {
      throw new CliExit(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  });
  let outcome;
  try {
    outcome = await importRules(dataDir, sources, tmpdir());
  } catch (error) {
    if (error instanceof RulesUnavailableError) throw new CliExit(error.message);
    if (error instanceof RulesBlockedError) throw new CliExit(texts.noOwnDatabase);
    throw error;
  }
  if (values.json) {
    io.stdout(JSON.stringify({ accepted: outcome.accepted.map(({ name, file, line }) => ({ name, file, line })), refused: outcome.refused, reload: outcome.reload }));
  } else {
    for (const rule of outcome.accepted) io.stdout(`${texts.accepted} ${rule.name}  (${rule.file}:${rule.line})`);
    for (const rule of outcome.refused) io.stdout(refusedLine(rule, texts));
    if (outcome.accepted.length > 0) io.stdout(outcome.reload === 'reloaded' ? texts.reloaded : texts.notRunning);
  }
  return outcome.refused.length > 0 ? 1 : 0;
}

/** `REFUSED NAME  (file:line): why: ClamAV's words` (ClamAV's words stay English). */
function refusedLine(rule: RefusedRule, texts: RulesTexts): string {
  return `${texts.refused} ${rule.name ?? '-'}  (${rule.file}:${rule.line}): ${texts.why[rule.code]}: ${rule.detail}`;
}
