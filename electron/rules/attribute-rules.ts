// Names the file of each finding made by one of the user's own YARA rules (issue 28 §4), from the
// rules' index, so it reads `YARA: RULE (FILE)` (shared/scans/finding-label.ts) in the CLI, the
// detail panel and `--json`. Never fails a scan: a finding whose rule is not known keeps its name.
import { basename } from 'node:path';
import type { EngineVerdict } from '../engine/engine.ts';
import { installedRules } from './rules-store.ts';

const YARA_NAME = /^YARA\.(.+?)(?:\.UNOFFICIAL)?$/;

export function attributeRules(verdict: EngineVerdict, dataDir: string): EngineVerdict {
  if (!verdict.findings.some((finding) => YARA_NAME.test(finding.name))) return verdict;
  try {
    const files = new Map(installedRules(dataDir).map((rule) => [rule.name, basename(rule.file)]));
    const findings = verdict.findings.map((finding) => {
      const file = files.get(YARA_NAME.exec(finding.name)?.[1] ?? '');
      return file === undefined ? finding : { ...finding, ruleFile: file };
    });
    return { ...verdict, findings };
  } catch {
    return verdict;
  }
}
