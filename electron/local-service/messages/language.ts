// Picks the language of human-readable messages. The spec's selector is the
// Content-Language request header (section 4); HTTP's own, Accept-Language,
// counts when Content-Language names neither en nor de. A tag counts by its
// primary subtag (`de-AT` is German). Anything else gives English, and every
// answer's Content-Language header says which language it is in.
import type { IncomingHttpHeaders } from 'node:http';
import { SUPPORTED_LANGUAGES, type Language } from '../../../shared/service-contract/limits.ts';

export function languageOf(headers: Pick<IncomingHttpHeaders, 'content-language' | 'accept-language'>): Language {
  return firstSupported(headers['content-language']) ?? preferred(headers['accept-language']) ?? 'en';
}

/** Content-Language lists the languages of the audience: the first we speak is theirs. */
function firstSupported(value: string | string[] | undefined): Language | null {
  for (const tag of listOf(value)) {
    const language = supported(tag);
    if (language) return language;
  }
  return null;
}

/** Accept-Language (RFC 9110 12.5.4): the supported language of the highest weight; on a tie, the first. */
function preferred(value: string | undefined): Language | null {
  let best: { language: Language; weight: number } | null = null;
  for (const entry of listOf(value)) {
    const [tag = '', ...params] = entry.split(';');
    const language = supported(tag);
    const q = params.map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)?.[1]).find((found) => found !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (language && weight > 0 && (!best || weight > best.weight)) best = { language, weight };
  }
  return best?.language ?? null;
}

function listOf(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  // Bounded: a header may be up to the parser's 16 KiB, and only its first tags can matter.
  return text.split(',', 32).map((tag) => tag.trim());
}

function supported(tag: string): Language | null {
  const primary = tag.trim().split('-')[0]?.toLowerCase();
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as Language) : null;
}
