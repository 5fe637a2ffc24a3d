// The window's part of the user's own YARA rules (issue 28 §4): what the preload exposes as
// `window.verdict.rules` and the core answers, the zod schema of each IPC channel, and the words
// for each refusal (en/de; libclamav's own words are shown beside them, marked English).
import { z } from 'zod';
import type { Result } from '../result.ts';

export const RULE_REFUSALS = ['syntax', 'module', 'unsupported', 'duplicate', 'not_a_rule', 'include'] as const;
export type RuleRefusal = (typeof RULE_REFUSALS)[number];

export interface RuleView {
  name: string;
  file: string;
  line: number;
}

export interface RefusedRuleView {
  name: string | null;
  file: string;
  line: number;
  code: RuleRefusal;
  /** libclamav's words (English). */
  detail: string;
}

export interface RulesImport {
  accepted: RuleView[];
  refused: RefusedRuleView[];
  /** The rules imported now, all of them. */
  rules: RuleView[];
}

export interface RulesApi {
  list(): Promise<Result<RuleView[]>>;
  /** Rule files or folders (their .yar/.yara files), each rule checked by ClamAV's loader; `rules_unavailable` without clamscan. */
  import(paths: string[]): Promise<Result<RulesImport>>;
  /** Every rule of that name; the rules left. */
  remove(name: string): Promise<Result<RuleView[]>>;
}

const pathSchema = z.string().min(1).max(4096).refine((path) => !path.includes('\0'), 'A path has no NUL character.');

export const RULES_CHANNELS = {
  'rules:list': z.tuple([]),
  'rules:import': z.tuple([z.array(pathSchema).min(1).max(1000)]),
  'rules:remove': z.tuple([z.string().min(1).max(128)]),
} as const;

export const RULE_WORDS = {
  en: {
    title: 'Your own YARA rules',
    intro: 'Checked by ClamAV’s own loader when imported: a rule it cannot load is refused with its file, line and why, and the others load all the same. Findings read “YARA: rule (file)”.',
    importFiles: 'Import rule files…',
    importFolder: 'Import a folder of rules…',
    none: 'No rules imported.',
    remove: (name: string) => `Remove ${name}`,
    accepted: (count: number) => (count === 1 ? '1 rule accepted.' : `${count} rules accepted.`),
    refusedTitle: 'Refused',
    why: {
      syntax: 'ClamAV cannot read it',
      module: 'it uses a YARA module, which ClamAV does not support',
      unsupported: 'ClamAV does not load it (it needs a string ClamAV can match, and at most 64 strings)',
      duplicate: 'a rule of this name is already imported',
      not_a_rule: 'this is not a rule',
      include: 'include is not followed: import that file itself',
    } satisfies Record<RuleRefusal, string>,
    where: (file: string, line: number) => `${file}, line ${line}`,
    clamav: 'ClamAV says:',
  },
  de: {
    title: 'Eigene YARA-Regeln',
    intro: 'Beim Import von ClamAVs eigenem Lader geprüft: Eine Regel, die er nicht laden kann, wird mit Datei, Zeile und Grund abgelehnt, und die anderen werden trotzdem geladen. Funde heißen „YARA: Regel (Datei)“.',
    importFiles: 'Regeldateien importieren…',
    importFolder: 'Ordner mit Regeln importieren…',
    none: 'Keine Regeln importiert.',
    remove: (name: string) => `${name} entfernen`,
    accepted: (count: number) => (count === 1 ? '1 Regel angenommen.' : `${count} Regeln angenommen.`),
    refusedTitle: 'Abgelehnt',
    why: {
      syntax: 'ClamAV kann sie nicht lesen',
      module: 'sie nutzt ein YARA-Modul, das ClamAV nicht unterstützt',
      unsupported: 'ClamAV lädt sie nicht (sie braucht eine Zeichenfolge, die ClamAV suchen kann, und höchstens 64)',
      duplicate: 'eine Regel dieses Namens ist schon importiert',
      not_a_rule: 'das ist keine Regel',
      include: 'include wird nicht verfolgt: importieren Sie diese Datei selbst',
    } satisfies Record<RuleRefusal, string>,
    where: (file: string, line: number) => `${file}, Zeile ${line}`,
    clamav: 'ClamAV sagt:',
  },
} as const;
