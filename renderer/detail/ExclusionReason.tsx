// The reason line of a skipped scan in the detail panel, in the UI's language.
import type { ReactElement } from 'react';
import type { RecordError } from '../../shared/scans/record.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { exclusionText } from './exclusion-text.ts';

export function ExclusionReason({ error }: { error: RecordError }): ReactElement {
  return <p data-testid="excluded-reason">{exclusionText(useTranslator(), error)}</p>;
}
