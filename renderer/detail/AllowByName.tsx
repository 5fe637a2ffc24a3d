// A threat's "Always allow "<name>"" actions, one per detection name (issue 28 §1), and for a
// record allowed by its names, "Stop allowing "<name>"". The core keeps the records in step.
import { useState, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import type { ScanRecord } from '../../shared/scans/record.ts';
import { TOOL_LANGUAGE } from '../app/tool-said.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { allowDetectionName, detectionNames, stopAllowingName } from '../quarantine/allow-name-actions.ts';

export function AllowByName({ record, how }: { record: ScanRecord; how: 'allow' | 'stop' }): ReactElement | null {
  const { t } = useTranslator();
  const [busy, setBusy] = useState(false);
  const names = detectionNames(record);
  if (names.length === 0) return null;
  const key = how === 'allow' ? 'threat.allowName' : 'threat.stopAllowingName';
  const run = (name: string) => async (): Promise<void> => {
    if (busy) return;
    setBusy(true);
    try {
      await (how === 'allow' ? allowDetectionName(name) : stopAllowingName(name));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="detail__actions" data-testid={how === 'allow' ? 'allow-by-name' : 'stop-allowing-by-name'}>
      {names.map((name) => (
        // The label is the same text in one piece: the name's <bdi> would otherwise be read with spaces around it.
        <button
          key={name}
          type="button"
          className="button"
          aria-disabled={busy}
          aria-label={t(key, { name: displayName(name) })}
          onClick={run(name)}
        >
          <WithName text={t(key, { name: NAME_MARK })} name={name} />
        </button>
      ))}
    </div>
  );
}

/** Where the name goes in a translated text (English and German put it in different places). */
const NAME_MARK = '\u0000';

/** The text with the name as an engine reported it: inside <bdi>, through displayName(), like every name shown. */
function WithName({ text, name }: { text: string; name: string }): ReactElement {
  const [before = '', after = ''] = text.split(NAME_MARK);
  return (
    <>
      {before}
      <bdi lang={TOOL_LANGUAGE}>{displayName(name)}</bdi>
      {after}
    </>
  );
}
