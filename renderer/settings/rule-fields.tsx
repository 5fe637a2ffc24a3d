// Small form fields the protection settings share: a list of rules typed one per
// line (paths, patterns, extensions), a size limit in MB (empty: none) and a
// whole number of days or scans (empty: none). Each applies on blur or Enter.
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((value, i) => value === b[i]);

/** Keeps a draft while the user types; follows the stored value when it changes elsewhere. */
function useDraft(stored: string): [string, (next: string) => void] {
  const [draft, setDraft] = useState(stored);
  const [seen, setSeen] = useState(stored);
  if (stored !== seen) {
    setSeen(stored);
    setDraft(stored);
  }
  return [draft, setDraft];
}

export function LinesField(props: {
  label: string;
  values: readonly string[];
  onCommit(values: string[]): void;
  placeholder?: string;
  hint?: string;
  /** A problem with one of the lines, shown under the field (e.g. a relative path). */
  problem?: (values: string[]) => string | null;
  children?: ReactNode;
  testId?: string;
}): ReactElement {
  const id = useId();
  const hintId = useId();
  const [draft, setDraft] = useDraft(props.values.join('\n'));
  const lines = draft
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const problem = props.problem?.(lines) ?? null;
  const commit = (): void => {
    if (!problem && !sameList(lines, props.values)) props.onCommit(lines);
  };
  return (
    <div className="field" data-testid={props.testId}>
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <textarea
        id={id}
        rows={Math.min(6, Math.max(2, lines.length + 1))}
        value={draft}
        placeholder={props.placeholder}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        spellCheck={false}
        aria-invalid={problem !== null}
        aria-describedby={props.hint || problem ? hintId : undefined}
      />
      <span id={hintId} className={problem ? 'field-error' : 'muted small'} role={problem ? 'alert' : undefined}>
        {problem ?? props.hint}
      </span>
      {props.children}
    </div>
  );
}

/** A whole number ≥ 1, or empty for "no limit"; `scale` turns the typed unit into the stored one (MB → bytes). */
export function NumberField(props: { label: string; value: number | null | undefined; onCommit(value: number | null): void; max: number; scale?: number; unit?: string; testId?: string }): ReactElement {
  const { t } = useTranslator();
  const scale = props.scale ?? 1;
  const id = useId();
  const [draft, setDraft] = useDraft(props.value === null || props.value === undefined ? '' : String(Math.round((props.value / scale) * 10) / 10));
  const [invalid, setInvalid] = useState(false);
  const commit = (): void => {
    const text = draft.trim();
    if (text === '') {
      setInvalid(false);
      if (props.value !== null && props.value !== undefined) props.onCommit(null);
      return;
    }
    const typed = Number(text.replace(',', '.'));
    const value = Math.round(typed * scale);
    if (!Number.isFinite(typed) || value < 1 || value > props.max) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (value !== props.value) props.onCommit(value);
  };
  return (
    <form
      className="field"
      onSubmit={(event) => {
        event.preventDefault();
        commit();
      }}
      data-testid={props.testId}
    >
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <span className="field-row field-row--tight">
        <input id={id} className="input--narrow" inputMode="decimal" value={draft} onChange={(event) => setDraft(event.target.value)} onBlur={commit} aria-invalid={invalid} placeholder={t('settings.noLimit')} />
        {props.unit ? <span className="muted">{props.unit}</span> : null}
      </span>
      {invalid ? (
        <span className="field-error" role="alert">
          {t('settings.numberInvalid', { max: Math.floor(props.max / scale) })}
        </span>
      ) : null}
    </form>
  );
}
