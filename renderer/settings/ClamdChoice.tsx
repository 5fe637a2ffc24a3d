// Settings › Malware engine: which clamd Verdict uses — the usual order, only Verdict's own,
// only the system's, or one the user names (unix:PATH or tcp:HOST:PORT, e.g. a clamav container
// on 3310). A named address is checked here, with the problem said in the UI's language (the
// core checks again); the choice is taken when the built-in service starts.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { parseClamdAddress } from '../../shared/engine/clamd-address.ts';
import type { ClamdChoice as Choice } from '../../shared/engine/clamd-choice.ts';
import type { MessageKey, MessageParams } from '../i18n/messages.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { updateSettings } from './settings-actions.ts';

const KINDS = ['auto', 'own', 'system', 'address'] as const;

export function ClamdChoice(): ReactElement | null {
  const chosen = useVerdict((state) => state.settings?.clamd ?? null);
  return chosen === null ? null : <ChoiceForm chosen={chosen} />;
}

function ChoiceForm({ chosen }: { chosen: Choice }): ReactElement {
  const { t } = useTranslator();
  const hintId = useId();
  const [kind, setKind] = useState<Choice['kind']>(chosen.kind);
  const choose = (next: Choice['kind']): void => {
    setKind(next);
    // "The one I name" waits for an address; the others apply at once.
    if (next !== 'address') void updateSettings({ clamd: { kind: next } });
  };
  return (
    <div className="clamd-choice" data-testid="clamd-choice">
      <fieldset className="choices" aria-describedby={hintId}>
        <legend>{t('clamd.choice')}</legend>
        {KINDS.map((each) => (
          <label className="choice" key={each}>
            <input type="radio" name="clamd-choice" value={each} checked={kind === each} onChange={() => choose(each)} data-testid={`clamd-choice-${each}`} />
            {t(`clamd.choice.${each}`)}
          </label>
        ))}
      </fieldset>
      {kind === 'address' ? <AddressField saved={chosen.kind === 'address' ? chosen.address : ''} /> : null}
      <p id={hintId} className="muted small">
        {t('clamd.choice.hint')}
      </p>
    </div>
  );
}

function AddressField({ saved }: { saved: string }): ReactElement {
  const { t } = useTranslator();
  const [draft, setDraft] = useState(saved);
  const [problem, setProblem] = useState<{ key: MessageKey; params: MessageParams } | null>(null);
  const fieldId = useId();
  const errorId = useId();
  const apply = (event: FormEvent): void => {
    event.preventDefault();
    const parsed = parseClamdAddress(draft);
    if (!parsed.ok) {
      const params = parsed.error.params ?? {};
      setProblem({ key: `clamd.problem.${String(params.problem)}` as MessageKey, params: { host: String(params.host ?? ''), port: String(params.port ?? ''), kind: String(params.kind ?? ''), path: String(params.path ?? '') } });
      return;
    }
    setProblem(null);
    void updateSettings({ clamd: { kind: 'address', address: draft.trim() } });
  };
  return (
    <>
      {/* noValidate: our own message (specific, in the UI language) instead of the browser bubble. */}
      <form className="field-row" onSubmit={apply} noValidate>
        <label className="field field--grow" htmlFor={fieldId}>
          <span className="field__label">{t('clamd.address')}</span>
          <input
            id={fieldId}
            type="text"
            value={draft}
            placeholder="tcp:127.0.0.1:3310"
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            spellCheck={false}
            data-testid="clamd-address"
          />
        </label>
        <button type="submit" className="button" data-testid="clamd-address-apply">
          {t('clamd.address.apply')}
        </button>
      </form>
      {problem ? (
        <p id={errorId} className="field-error" role="alert" data-testid="clamd-address-problem">
          {t(problem.key, problem.params)}
        </p>
      ) : null}
    </>
  );
}
