// Which clamd Verdict uses (Settings › Malware engine): the usual order (`auto`), only
// Verdict's own, only the system's (the usual socket paths, never one of Verdict's own),
// or the one the user named (`--clamd` on the CLIs names one for a run).
import { z } from 'zod';
import { parseClamdAddress, type ClamdAddress } from './clamd-address.ts';

/** An address as the user writes it: `unix:PATH` or `tcp:HOST:PORT`, checked by parseClamdAddress. */
export const clamdAddressTextSchema = z
  .string()
  .max(4200)
  .superRefine((text, context) => {
    const parsed = parseClamdAddress(text);
    if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error.message, params: parsed.error.params });
  });

export const clamdChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('auto') }),
  z.object({ kind: z.literal('own') }),
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('address'), address: clamdAddressTextSchema }),
]);
export type ClamdChoice = z.infer<typeof clamdChoiceSchema>;

/** The choice with its address read: what the engine selection takes. */
export type ResolvedClamdChoice = { kind: 'auto' | 'own' | 'system' } | { kind: 'address'; address: ClamdAddress };

export function resolveClamdChoice(choice: ClamdChoice): ResolvedClamdChoice {
  if (choice.kind !== 'address') return { kind: choice.kind };
  const parsed = parseClamdAddress(choice.address);
  // The schema admitted it; a settings file edited by hand falls back to the usual order.
  return parsed.ok ? { kind: 'address', address: parsed.value } : { kind: 'auto' };
}
