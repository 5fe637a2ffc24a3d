// Settings › Malware engine: what ClamAV detects and how far it looks (issue 28 §2). For Verdict's
// own clamd a form: PUA off/on, all or except/only categories, the four scan limits, archives and
// heuristic alerts, each with one sentence on what it trades; checked as typed (the same checks as
// the core's zod schema), saved whole, which restarts that clamd. A system clamd's values are shown
// read-only as its clamd.conf says; a clamd whose configuration Verdict cannot read: not known.
import { useId, useState, type ReactElement } from 'react';
import type { DetectionView } from '../../shared/engine/protection-state.ts';
import { DEFAULT_DETECTION, DETECTION_BOUNDS, type DetectionSettings, type PuaSettings } from '../../shared/settings/detection.ts';
import { CLAMD_OPTION, DETECTION_WORDS, detectionLines, detectionProblemText, type DetectionField } from '../../shared/settings/detection-text.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { updateSettings } from './settings-actions.ts';

type NumberField = keyof typeof DETECTION_BOUNDS;
const NUMBER_FIELDS: readonly NumberField[] = ['maxFileSizeMb', 'maxScanSizeMb', 'maxRecursion', 'maxFiles'];
const MB_FIELDS: ReadonlySet<NumberField> = new Set(['maxFileSizeMb', 'maxScanSizeMb']);

export function DetectionSettings(): ReactElement | null {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale];
  const view = useVerdict((state) => state.protection);
  const saved = useVerdict((state) => state.settings?.detection ?? null);
  const [status, setStatus] = useState<SaveStatus>('idle');
  if (view === null || saved === null || view.remote !== null) return null;
  const engine = view.status?.engine;
  const known = view.status?.detection;
  const foreign = engine !== undefined && engine.name === 'clamav' && engine.source !== 'own';
  return (
    <section className="detection-settings" aria-labelledby="detection-title" data-testid="detection-settings">
      <h3 id="detection-title">{words.title}</h3>
      {/* Keyed by what is saved: a change saved elsewhere (another window, the CLI) starts a fresh draft. */}
      {foreign ? <ReadOnly view={known ?? null} /> : <DetectionForm key={JSON.stringify(saved)} saved={saved} status={status} setStatus={setStatus} />}
    </section>
  );
}

/** A clamd Verdict does not configure: its values as its clamd.conf says, or not known. */
function ReadOnly({ view }: { view: DetectionView | null }): ReactElement {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale];
  if (view === null) return <p className="muted" data-testid="detection-not-known">{words.notKnown}</p>;
  return (
    <>
      <p className="muted small">{words.readOnly(view.configPath)}</p>
      <ul className="facts-list" data-testid="detection-read-only">
        {detectionLines(view.settings, locale).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}

type SaveStatus = 'idle' | 'saving' | 'saved';

function DetectionForm({ saved, status, setStatus }: { saved: DetectionSettings; status: SaveStatus; setStatus(status: SaveStatus): void }): ReactElement {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale];
  const [draft, setDraft] = useState<DetectionSettings>(saved);
  const [categories, setCategories] = useState(saved.pua.categories.join(', '));
  const withCategories: DetectionSettings = { ...draft, pua: { ...draft.pua, categories: draft.pua.mode === 'all' ? [] : splitCategories(categories) } };
  const problem = detectionProblemText(withCategories, locale);
  const changed = JSON.stringify(withCategories) !== JSON.stringify(saved);
  const set = (patch: Partial<DetectionSettings>) => {
    setStatus('idle');
    setDraft((current) => ({ ...current, ...patch }));
  };
  const save = async () => {
    if (problem) return;
    setStatus('saving');
    setStatus((await updateSettings({ detection: withCategories })) ? 'saved' : 'idle');
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <p className="muted small">{words.intro}</p>
      <PuaFields pua={draft.pua} categories={categories} problem={problem?.field === 'categories' ? problem.text : null} onPua={(pua) => set({ pua })} onCategories={(text) => (setStatus('idle'), setCategories(text))} />
      {NUMBER_FIELDS.map((field) => (
        <NumberInput key={field} field={field} value={draft[field]} problem={problem?.field === field ? problem.text : null} onChange={(value) => set({ [field]: value })} />
      ))}
      <Toggle field="scanArchives" checked={draft.scanArchives} onChange={(scanArchives) => set({ scanArchives })} />
      <Toggle field="heuristicAlerts" checked={draft.heuristicAlerts} onChange={(heuristicAlerts) => set({ heuristicAlerts })} />
      <div className="field-row">
        <button type="submit" className="button" disabled={problem !== null || !changed || status === 'saving'} data-testid="detection-save">
          {words.save}
        </button>
        <button type="button" className="button button--quiet" onClick={() => (setDraft(DEFAULT_DETECTION), setCategories(''), setStatus('idle'))} data-testid="detection-defaults">
          {words.defaults}
        </button>
      </div>
      <p className="muted small" role="status" data-testid="detection-status">
        {status === 'saved' ? `${words.saved} ${words.restartNote}` : ''}
      </p>
    </form>
  );
}

function PuaFields(props: { pua: PuaSettings; categories: string; problem: string | null; onPua(pua: PuaSettings): void; onCategories(text: string): void }): ReactElement {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale];
  const ids = { trade: useId(), mode: useId(), categories: useId(), hint: useId(), problem: useId() };
  const { pua } = props;
  return (
    <fieldset className="field">
      <legend className="field__label">{words.fields.pua.label}</legend>
      <label className="choice">
        <input type="checkbox" checked={pua.enabled} aria-describedby={ids.trade} onChange={(event) => props.onPua({ ...pua, enabled: event.target.checked })} data-testid="detection-pua" />
        {words.puaToggle} ({CLAMD_OPTION.pua})
      </label>
      <p id={ids.trade} className="muted small">
        {words.fields.pua.trade}
      </p>
      {pua.enabled ? (
        <>
          <label className="field__label" htmlFor={ids.mode}>
            {words.categories}
          </label>
          <select id={ids.mode} value={pua.mode} onChange={(event) => props.onPua({ ...pua, mode: event.target.value as PuaSettings['mode'] })} data-testid="detection-pua-mode">
            <option value="all">{words.puaMode.all}</option>
            <option value="except">{words.puaMode.except} (ExcludePUA)</option>
            <option value="only">{words.puaMode.only} (IncludePUA)</option>
          </select>
          {pua.mode !== 'all' ? (
            <input
              id={ids.categories}
              type="text"
              aria-label={words.categories}
              value={props.categories}
              aria-describedby={props.problem ? `${ids.hint} ${ids.problem}` : ids.hint}
              aria-invalid={props.problem !== null}
              onChange={(event) => props.onCategories(event.target.value)}
              data-testid="detection-pua-categories"
            />
          ) : null}
          <p id={ids.hint} className="muted small">
            {words.categoriesHint}
          </p>
          {props.problem ? (
            <p id={ids.problem} className="field-error" role="alert">
              {props.problem}
            </p>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}

function NumberInput({ field, value, problem, onChange }: { field: NumberField; value: number; problem: string | null; onChange(value: number): void }): ReactElement {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale].fields[field];
  const id = useId();
  const tradeId = useId();
  const problemId = useId();
  const { min, max } = DETECTION_BOUNDS[field];
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {words.label}
        {MB_FIELDS.has(field) ? ' (MB)' : ''} ({CLAMD_OPTION[field]})
      </label>
      <input
        id={id}
        className="input--narrow"
        type="number"
        min={min}
        max={max}
        step={1}
        value={Number.isNaN(value) ? '' : value}
        aria-describedby={problem ? `${tradeId} ${problemId}` : tradeId}
        aria-invalid={problem !== null}
        onChange={(event) => onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))}
        data-testid={`detection-${field}`}
      />
      <p id={tradeId} className="muted small">
        {words.trade}
      </p>
      {problem ? (
        <p id={problemId} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function Toggle({ field, checked, onChange }: { field: Extract<DetectionField, 'scanArchives' | 'heuristicAlerts'>; checked: boolean; onChange(value: boolean): void }): ReactElement {
  const { locale } = useTranslator();
  const words = DETECTION_WORDS[locale].fields[field];
  const tradeId = useId();
  return (
    <div className="field">
      <label className="choice">
        <input type="checkbox" checked={checked} aria-describedby={tradeId} onChange={(event) => onChange(event.target.checked)} data-testid={`detection-${field}`} />
        {words.label} ({CLAMD_OPTION[field]})
      </label>
      <p id={tradeId} className="muted small">
        {words.trade}
      </p>
    </div>
  );
}

function splitCategories(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
