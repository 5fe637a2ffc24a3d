// Names the feed of each finding of Verdict's own clamd (signature-names.ts), so the detail panel,
// `--json` and the export can say which feed's signature made it. Never fails a scan: a finding
// whose feed cannot be told keeps no feed.
import type { EngineVerdict } from '../engine/engine.ts';
import { feedOfFinding } from './signature-names.ts';

export function attributeFeeds(verdict: EngineVerdict, dataDir: string): EngineVerdict {
  if (verdict.findings.length === 0) return verdict;
  const findings = verdict.findings.map((finding) => {
    try {
      const feed = feedOfFinding(dataDir, finding.name);
      return feed === null ? finding : { ...finding, feed };
    } catch {
      return finding;
    }
  });
  return { ...verdict, findings };
}
