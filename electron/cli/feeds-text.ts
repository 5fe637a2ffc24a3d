// `verdict feeds` in English and German: the list, the changes, an update's outcome, and why
// a URL is refused (shared/feeds/feed.ts FeedUrlProblem).
import type { FeedUrlProblem, FeedView } from '../../shared/feeds/feed.ts';
import type { Language } from '../../shared/service-contract/limits.ts';

export interface FeedsTexts {
  feedLine(feed: FeedView): string;
  licence(url: string): string;
  lastError(code: string, detail: string, url: string): string;
  urlProblem(problem: FeedUrlProblem, detail: string): string;
  added(feed: FeedView): string;
  switched(feed: FeedView, removed: number): string;
  removed(id: string): string;
  notFound(id: string): string;
  alreadyAdded(id: string): string;
  presetKept(id: string): string;
  updated(changed: boolean, failed: string[]): string;
  reloaded: string;
  notRunning: string;
  reloadFailed(detail: string): string;
  blocked(databaseDir: string): string;
  busy: string;
}

const day = (iso: string | null) => (iso === null ? null : iso.slice(0, 16).replace('T', ' '));

const EN: FeedsTexts = {
  feedLine: (feed) => {
    const { signatures, lastUpdate } = feed.health;
    const state = feed.enabled ? 'on ' : 'off';
    const facts = signatures === null ? 'not installed' : `${signatures} signatures, updated ${day(lastUpdate)} UTC`;
    return `[${state}] ${feed.id}  ${feed.name}: ${facts}`;
  },
  licence: (url) => `      terms: ${url}`,
  lastError: (code, detail, url) => `      last error: ${code}${detail ? ` (${detail})` : ''} at ${url}`,
  urlProblem: (problem, detail) =>
    ({
      empty: 'Give the URL of a ClamAV database file.',
      too_long: `The URL is longer than ${detail} characters.`,
      not_a_url: `Not a URL: ${detail}`,
      scheme: `Only http and https URLs can be fetched, not ${detail}.`,
      credentials: 'The URL holds a user name or password; Verdict would store and show it. Use a URL without one.',
      no_file: `The URL names no file (${detail}): it must end with a database file such as sigs.ndb.`,
      extension: `${detail} is not a ClamAV database file: use .ndb, .hdb, .hsb, .ldb, .cdb, .yar and the like.`,
    })[problem],
  added: (feed) => `Added ${feed.id} (${feed.name}), switched on. Run "verdict feeds update" to fetch it.`,
  switched: (feed, removed) =>
    feed.enabled ? `Switched on ${feed.id}. Run "verdict feeds update" to fetch it.` : `Switched off ${feed.id}${removed > 0 ? `: ${removed} file(s) removed from the signature folder` : ''}.`,
  removed: (id) => `Removed ${id}.`,
  notFound: (id) => `No feed ${id}. "verdict feeds" lists them.`,
  alreadyAdded: (id) => `That URL is already in feed ${id}.`,
  presetKept: (id) => `${id} is a ready-made feed: switch it off instead ("verdict feeds off ${id}").`,
  updated: (changed, failed) =>
    failed.length === 0
      ? changed
        ? 'Feeds updated.'
        : 'Feeds checked: nothing new.'
      : `Feeds updated, except ${failed.join(', ')}: they keep their last good files (see the errors above).`,
  reloaded: "Verdict's own clamd reloaded its signatures.",
  notRunning: "Verdict's own clamd is not running: it loads the feeds when it starts.",
  reloadFailed: (detail) => `Verdict's own clamd could not reload: ${detail}`,
  blocked: (dir) => `Feeds are not installed: ${dir} holds no ClamAV database of its own yet. Run "verdict update" first.`,
  busy: 'Another Verdict process is updating the feeds now; try again when it has finished.',
};

const DE: FeedsTexts = {
  feedLine: (feed) => {
    const { signatures, lastUpdate } = feed.health;
    const state = feed.enabled ? 'an ' : 'aus';
    const facts = signatures === null ? 'nicht installiert' : `${signatures} Signaturen, aktualisiert ${day(lastUpdate)} UTC`;
    return `[${state}] ${feed.id}  ${feed.name}: ${facts}`;
  },
  licence: (url) => `      Bedingungen: ${url}`,
  lastError: (code, detail, url) => `      letzter Fehler: ${code}${detail ? ` (${detail})` : ''} bei ${url}`,
  urlProblem: (problem, detail) =>
    ({
      empty: 'Gib die URL einer ClamAV-Datenbankdatei an.',
      too_long: `Die URL ist länger als ${detail} Zeichen.`,
      not_a_url: `Keine URL: ${detail}`,
      scheme: `Nur http- und https-URLs können geladen werden, nicht ${detail}.`,
      credentials: 'Die URL enthält einen Benutzernamen oder ein Passwort; Verdict würde es speichern und anzeigen. Nimm eine URL ohne.',
      no_file: `Die URL nennt keine Datei (${detail}): Sie muss mit einer Datenbankdatei wie sigs.ndb enden.`,
      extension: `${detail} ist keine ClamAV-Datenbankdatei: Nimm .ndb, .hdb, .hsb, .ldb, .cdb, .yar und ähnliche.`,
    })[problem],
  added: (feed) => `${feed.id} (${feed.name}) hinzugefügt und eingeschaltet. „verdict feeds update“ lädt ihn.`,
  switched: (feed, removed) =>
    feed.enabled ? `${feed.id} eingeschaltet. „verdict feeds update“ lädt ihn.` : `${feed.id} ausgeschaltet${removed > 0 ? `: ${removed} Datei(en) aus dem Signaturordner entfernt` : ''}.`,
  removed: (id) => `${id} entfernt.`,
  notFound: (id) => `Keinen Feed ${id}. „verdict feeds“ listet sie.`,
  alreadyAdded: (id) => `Diese URL gehört schon zu Feed ${id}.`,
  presetKept: (id) => `${id} ist ein vorbereiteter Feed: Schalte ihn stattdessen aus („verdict feeds off ${id}“).`,
  updated: (changed, failed) =>
    failed.length === 0
      ? changed
        ? 'Feeds aktualisiert.'
        : 'Feeds geprüft: nichts Neues.'
      : `Feeds aktualisiert, außer ${failed.join(', ')}: Sie behalten ihre letzten guten Dateien (siehe die Fehler oben).`,
  reloaded: 'Verdicts eigener clamd hat seine Signaturen neu geladen.',
  notRunning: 'Verdicts eigener clamd läuft nicht: Er lädt die Feeds bei seinem Start.',
  reloadFailed: (detail) => `Verdicts eigener clamd konnte nicht neu laden: ${detail}`,
  blocked: (dir) => `Feeds werden nicht installiert: ${dir} enthält noch keine eigene ClamAV-Datenbank. Führe zuerst „verdict update“ aus.`,
  busy: 'Ein anderer Verdict-Prozess aktualisiert die Feeds gerade; versuche es erneut, wenn er fertig ist.',
};

export function feedsTexts(language: Language): FeedsTexts {
  return language === 'de' ? DE : EN;
}
