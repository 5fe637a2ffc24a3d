// How a finding reads: a finding of the user's own YARA rules (issue 28 §4) reads
// `YARA: RULE (FILE)`, from clamd's `YARA.RULE.UNOFFICIAL` and the rule's file (`ruleFile`, set
// where the rules are known: electron/rules/attribute-rules.ts); any other finding by its name.

const YARA_NAME = /^YARA\.(.+?)(?:\.UNOFFICIAL)?$/;

export function findingLabel(finding: { name: string; ruleFile?: unknown }): string {
  const rule = YARA_NAME.exec(finding.name)?.[1];
  if (rule === undefined || typeof finding.ruleFile !== 'string') return finding.name;
  return `YARA: ${rule} (${finding.ruleFile})`;
}
