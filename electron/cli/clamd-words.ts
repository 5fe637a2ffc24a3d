// What the CLIs say about the clamd in use, in English and German: whose it is (from facts:
// the address the user chose, whether Verdict started it, who runs it; see ENGINE_SOURCES),
// how files reach it, and what is wrong with a `--clamd` value.
import type { ClamdAddressProblem } from '../../shared/engine/clamd-address.ts';
import type { ClamdTransfer, EngineSource } from '../../shared/engine/protection-state.ts';
import type { ErrorParams } from '../../shared/result.ts';
import type { Language } from '../../shared/service-contract/limits.ts';

type Words = {
  sources: Record<EngineSource, string>;
  transfer: Record<ClamdTransfer, string>;
  /** The `status` line: `Files reach clamd: by descriptor (FILDES)`. */
  reach: string;
  how: Record<ClamdTransfer, string>;
  badAddress: (text: string, problem: string) => string;
  notAnswering: (where: string) => string;
  problems: Record<ClamdAddressProblem, (params: ErrorParams) => string>;
};

const FORMS = 'unix:/path/to/clamd.sock, tcp:HOST:PORT';

const en: Words = {
  sources: {
    configured: 'the clamd you named',
    system: "the system's clamd",
    own: "Verdict's own clamd",
    found: 'a clamd your own account runs (not started by Verdict)',
    builtin: 'basic checks',
  },
  transfer: { fildes: 'files go to clamd by descriptor (FILDES)', instream: 'files are streamed to clamd (INSTREAM)' },
  reach: 'Files reach clamd',
  how: { fildes: 'by descriptor (FILDES)', instream: 'streamed (INSTREAM)' },
  badAddress: (text, problem) => `--clamd: ${JSON.stringify(text)} is not a clamd address: ${problem}.`,
  notAnswering: (where) => `--clamd: no clamd answers at ${where}. Start it (a clamav container: is its port published?), or name another.`,
  problems: {
    empty: () => `write ${FORMS}`,
    kind_missing: () => `write ${FORMS}`,
    path_without_kind: (p) => `say what it is: unix:${String(p.path)}`,
    unknown_kind: (p) => `"${String(p.kind)}" is not a kind of address (${FORMS})`,
    socket_missing: () => 'the socket path is missing (unix:/run/clamav/clamd.ctl)',
    socket_nul: () => 'the socket path holds a NUL character',
    socket_relative: () => 'the socket path must be absolute, starting with /',
    ipv6_unclosed: () => 'an IPv6 address needs its closing ] (tcp:[::1]:3310)',
    port_after_bracket: () => 'write the port after the ] as :PORT',
    not_ipv6: (p) => `"${String(p.host)}" is not an IPv6 address`,
    host_missing: () => 'the host is missing (tcp:127.0.0.1:3310)',
    bad_host: (p) => `"${String(p.host)}" is not a host name or an IP address`,
    ipv6_brackets: () => 'an IPv6 address goes in brackets: tcp:[::1]:3310',
    bad_port: (p) => `the port must be a number from 1 to 65535, not "${String(p.port)}"`,
  },
};

const FORMS_DE = 'unix:/pfad/zu/clamd.sock, tcp:HOST:PORT';

const de: Words = {
  sources: {
    configured: 'der von Ihnen genannte clamd',
    system: 'der clamd des Systems',
    own: 'Verdicts eigener clamd',
    found: 'ein clamd Ihres eigenen Kontos (nicht von Verdict gestartet)',
    builtin: 'Basisprüfungen',
  },
  transfer: { fildes: 'Dateien gehen per Deskriptor an clamd (FILDES)', instream: 'Dateien werden an clamd gestreamt (INSTREAM)' },
  reach: 'Dateien erreichen clamd',
  how: { fildes: 'per Deskriptor (FILDES)', instream: 'gestreamt (INSTREAM)' },
  badAddress: (text, problem) => `--clamd: ${JSON.stringify(text)} ist keine clamd-Adresse: ${problem}.`,
  notAnswering: (where) => `--clamd: Unter ${where} antwortet kein clamd. Starten Sie ihn (ein clamav-Container: ist sein Port freigegeben?) oder nennen Sie einen anderen.`,
  problems: {
    empty: () => `schreiben Sie ${FORMS_DE}`,
    kind_missing: () => `schreiben Sie ${FORMS_DE}`,
    path_without_kind: (p) => `sagen Sie, was es ist: unix:${String(p.path)}`,
    unknown_kind: (p) => `„${String(p.kind)}“ ist keine Adressart (${FORMS_DE})`,
    socket_missing: () => 'der Socket-Pfad fehlt (unix:/run/clamav/clamd.ctl)',
    socket_nul: () => 'der Socket-Pfad enthält ein NUL-Zeichen',
    socket_relative: () => 'der Socket-Pfad muss absolut sein und mit / beginnen',
    ipv6_unclosed: () => 'einer IPv6-Adresse fehlt die schließende ] (tcp:[::1]:3310)',
    port_after_bracket: () => 'schreiben Sie den Port nach der ] als :PORT',
    not_ipv6: (p) => `„${String(p.host)}“ ist keine IPv6-Adresse`,
    host_missing: () => 'der Host fehlt (tcp:127.0.0.1:3310)',
    bad_host: (p) => `„${String(p.host)}“ ist weder ein Hostname noch eine IP-Adresse`,
    ipv6_brackets: () => 'eine IPv6-Adresse gehört in eckige Klammern: tcp:[::1]:3310',
    bad_port: (p) => `der Port muss eine Zahl von 1 bis 65535 sein, nicht „${String(p.port)}“`,
  },
};

export const clamdWords = (language: Language): Words => (language === 'de' ? de : en);

/** The sentence for a `--clamd` value parseClamdAddress refused (its error's params). */
export function clamdAddressProblemText(text: string, params: ErrorParams | undefined, language: Language): string {
  const words = clamdWords(language);
  const problem = words.problems[(params?.problem ?? 'empty') as ClamdAddressProblem] ?? words.problems.empty;
  return words.badAddress(text, problem(params ?? {}));
}
