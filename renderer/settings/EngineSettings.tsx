// Settings › Malware engine: which engine checks files, where it runs, its version,
// its signatures and their age, the last self-test, its scan limits (and whether files beyond them read "scanned in part"), the database folder; "Update signatures now" with
// its progress and outcome in words, and "Look again".
import type { ReactElement } from 'react';
import type { ProtectionStatus } from '../../shared/engine/protection-state.ts';
import type { ProtectionView, SignatureUpdateOutcome } from '../../shared/engine/protection-view.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { refreshProtection, updateSignatures } from '../protection/protection-actions.ts';
import { engineNameText, headline, reasonText, reasonWords, scanLimitsText, selfTestText, signaturesText, streamLimitText, updateOutcomeText, updateOutcomeWords, updateSucceeded, whereText } from '../protection/protection-text.ts';
import { ToolWords } from '../app/ToolWords.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { EngineChoice } from './EngineChoice.tsx';
import { DetectionSettings } from './DetectionSettings.tsx';
import { RulesSettings } from './RulesSettings.tsx';
import { ClamdChoice } from './ClamdChoice.tsx';
import { Fact } from '../app/Fact.tsx';

export function EngineSettings(): ReactElement {
  const translator = useTranslator();
  const { t } = translator;
  const view = useVerdict((state) => state.protection);
  return (
    <section className="card" aria-labelledby="engine-title" data-testid="engine-settings">
      <h2 id="engine-title">{t('engine.title')}</h2>
      {view === null ? <p className="muted">{t('protection.loading')}</p> : <EngineFacts view={view} />}
      {view !== null && view.remote === null ? <UpdateControls view={view} /> : null}
      {view !== null && view.remote === null ? <EngineChoice setting="autoUpdateSignatures" /> : null}
      {view !== null && view.remote === null ? <EngineChoice setting="startOwnClamd" /> : null}
      <DetectionSettings />
      {view !== null && view.remote === null ? <RulesSettings /> : null}
      {view !== null && view.remote === null ? <ClamdChoice /> : null}
    </section>
  );
}

function EngineFacts({ view }: { view: ProtectionView }): ReactElement {
  const translator = useTranslator();
  const { t } = translator;
  const status = view.status;
  const limit = status ? streamLimitText(status, translator) : null;
  const scanLimits = status ? scanLimitsText(status, translator) : null;
  return (
    <>
      {status ? (
        <p className={`engine-state engine-state--${status.state}`} data-state={status.state}>
          <strong>{headline(status, translator)}.</strong> {reasonText(status, translator)}
          <ReasonWords status={status} />
        </p>
      ) : null}
      <dl className="facts">
        {status ? <Fact label={t('engine.name')}>{engineNameText(status, translator)}</Fact> : null}
        <Fact label={t('engine.where')}>
          <span className="break">{whereText(view, translator)}</span>
        </Fact>
        {status ? <Fact label={t('engine.signatures')}>{signaturesText(status, translator)}</Fact> : null}
        {status ? (
          <Fact label={t('engine.selfTest')}>
            <span data-testid="engine-self-test" data-result={status.selfTest?.result ?? 'none'}>
              {selfTestText(status, translator)}
            </span>
          </Fact>
        ) : null}
        {scanLimits ? (
          <Fact label={t('engine.scanLimits')}>
            <span data-testid="engine-scan-limits">{scanLimits}</span>
          </Fact>
        ) : null}
        {view.remote === null ? (
          <Fact label={t('engine.database')}>
            {view.databaseDir ? <span className="mono break">{view.databaseDir}</span> : t('engine.database.unknown')}
          </Fact>
        ) : null}
      </dl>
      {limit ? <p className="engine-limit">{limit}</p> : null}
    </>
  );
}

function UpdateControls({ view }: { view: ProtectionView }): ReactElement {
  const translator = useTranslator();
  const { t } = translator;
  const running = view.update.phase === 'running';
  const line = view.update.phase === 'running' ? view.update.line : null;
  const last = view.update.last;
  return (
    <div className="engine-update">
      <div className="engine-update__buttons">
        {/* Focusable while running (aria-disabled): disabling it would drop the focus. */}
        <button
          type="button"
          className="button button--primary"
          aria-disabled={running || undefined}
          onClick={() => void (running ? undefined : updateSignatures())}
          data-testid="engine-update"
        >
          {t('engine.update')}
        </button>
        <button type="button" className="button" onClick={() => void refreshProtection()}>
          {t('engine.lookAgain')}
        </button>
      </div>
      {/* freshclam's progress and its own words on a failure, under the sentence in the UI's language. */}
      <p role="status" aria-live="polite" className="engine-update__progress" data-testid="engine-update-status">
        {running ? (
          <>
            {t('engine.updating')}
            {line ? <ToolWords said={{ tool: 'freshclam', words: line }} /> : null}
          </>
        ) : last ? (
          <span className={updateSucceeded(last) ? 'engine-update__ok' : 'engine-update__problem'} data-outcome={last.code}>
            {updateOutcomeText(last, translator)}
            <OutcomeWords outcome={last} />
          </span>
        ) : null}
      </p>
    </div>
  );
}

function ReasonWords({ status }: { status: ProtectionStatus }): ReactElement | null {
  const said = reasonWords(status);
  return said ? <ToolWords said={said} /> : null;
}

function OutcomeWords({ outcome }: { outcome: SignatureUpdateOutcome }): ReactElement | null {
  const said = updateOutcomeWords(outcome);
  return said ? <ToolWords said={said} /> : null;
}
