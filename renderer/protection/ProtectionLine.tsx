// The protection status line above the list: calm when protected, a clear warning
// with the one action that fixes it when protection is outdated, limited or not
// running. With a remote service it says whose engine checks the files.
import type { ReactElement } from 'react';
import type { ProtectionView } from '../../shared/engine/protection-view.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { CleanIcon, WarningIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { refreshProtection, updateSignatures } from './protection-actions.ts';
import { actionLabel, headline, hintText, hostOf, lineAction, platformOf, reasonText, reasonWords } from './protection-text.ts';
import { ToolWords } from '../app/ToolWords.tsx';

export function ProtectionLine(): ReactElement {
  const { t } = useTranslator();
  const view = useVerdict((state) => state.protection);
  // The live region always exists, so a change of state is announced.
  return (
    <div className="protection-line-region" role="status" aria-live="polite" data-testid="protection-line">
      {view === null ? null : view.remote !== null ? (
        <p className="protection-line protection-line--remote" data-state="remote">
          <span className="protection-line__text">{t('protection.remote', { host: hostOf(view.remote) })}</span>
        </p>
      ) : view.status ? (
        <Line view={view} />
      ) : null}
    </div>
  );
}

// A component of its own (not defined inside ProtectionLine), so its button keeps focus across updates.
function Line({ view }: { view: ProtectionView }): ReactElement | null {
  const translator = useTranslator();
  const { t } = translator;
  const status = view.status;
  if (!status) return null;
  const platform = platformOf(navigator.userAgent);
  const action = lineAction(status.action, platform, status.engine.source);
  const hint = hintText(status.action, platform, translator, status.engine.source);
  const updating = view.update.phase === 'running';
  const calm = status.state === 'protected';
  const said = reasonWords(status);
  // While an update runs the button stays focusable (aria-disabled): disabling it would drop the focus.
  const act = (): void => {
    if (updating) return;
    void (action?.kind === 'update' ? updateSignatures() : refreshProtection());
  };
  return (
    <div className={`protection-line protection-line--${status.state}`} data-state={status.state}>
      {calm ? <CleanIcon className="protection-line__icon" /> : <WarningIcon className="protection-line__icon" />}
      <p className="protection-line__text">
        <strong>{headline(status, translator)}</strong> <span data-testid="protection-reason">{reasonText(status, translator)}</span>
        {hint ? <span className="protection-line__hint"> {hint}</span> : null}
        {said ? <ToolWords said={said} /> : null}
      </p>
      {action?.kind === 'install' ? (
        <a className="button" href={action.url} target="_blank" rel="noreferrer noopener">
          {actionLabel(action, translator)}
        </a>
      ) : action ? (
        <button type="button" className="button" aria-disabled={updating || undefined} onClick={act} data-testid="protection-action">
          {updating ? t('engine.updating') : actionLabel(action, translator)}
        </button>
      ) : null}
    </div>
  );
}
