// The core's `rules` namespace (shared/rules/rules-api.ts): the same steps as `verdict rules`,
// answered as Results; after a change, the protection state is looked at again (the signature
// identity follows the files clamd loaded).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { err, ok } from '../../shared/result.ts';
import type { RulesApi, RuleView } from '../../shared/rules/rules-api.ts';
import type { Guard } from '../core/core-context.ts';
import { importRules, installedRules, removeRules, RulesBlockedError, RulesUnavailableError } from './rules-store.ts';
import { ruleFiles } from './rule-files.ts';

export function rulesApi(input: { guard: Guard; dataDir: string; afterChange: () => unknown }): RulesApi {
  const { guard, dataDir } = input;
  const list = (): RuleView[] => installedRules(dataDir).map(({ name, file, line }) => ({ name, file, line }));
  return {
    list: () => guard('Reading the YARA rules', () => ok(list())),
    import: (paths) =>
      guard('Importing YARA rules', async () => {
        const files = ruleFiles(paths);
        if (files.length === 0) return err('no_rule_files', 'No YARA file (.yar, .yara) there.');
        const sources = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
        try {
          const outcome = await importRules(dataDir, sources, tmpdir());
          if (outcome.accepted.length > 0) await input.afterChange();
          return ok({ accepted: outcome.accepted.map(({ name, file, line }) => ({ name, file, line })), refused: outcome.refused, rules: list() });
        } catch (error) {
          if (error instanceof RulesUnavailableError) return err('rules_unavailable', error.message);
          if (error instanceof RulesBlockedError) return err('rules_no_own_database', error.message);
          throw error;
        }
      }),
    remove: (name) =>
      guard('Removing a YARA rule', async () => {
        const removed = await removeRules(dataDir, { name }, tmpdir());
        if (removed.removed.length > 0) await input.afterChange();
        return ok(list());
      }),
  };
}
