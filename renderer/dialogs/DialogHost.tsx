// The one modal dialog, when the store holds a request: a native <dialog>
// opened with showModal(), so focus stays inside, the page behind is inert and
// Escape cancels. Cancel is focused first: nothing is sent or removed by
// pressing Enter without reading. Closed, it gives focus back to its opener.
import { useId, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { shownParams } from '../i18n/shown-params.ts';
import { placeOf, restoreFocus } from '../app/focus-guard.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { UploadIcon, WarningIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import type { DialogRequest } from './dialog-request.ts';

/** A key per request: a new question is a new element, so its local state (the checkbox) starts fresh. */
const keys = new WeakMap<DialogRequest, number>();
let nextKey = 0;
const keyOf = (request: DialogRequest): number => {
  let key = keys.get(request);
  if (key === undefined) keys.set(request, (key = ++nextKey));
  return key;
};

export function DialogHost(): ReactElement | null {
  const dialog = useVerdict((state) => state.dialog);
  if (!dialog) return null;
  return dialog.kind === 'upload' ? <UploadDialog key={keyOf(dialog)} request={dialog} /> : <ConfirmDialog key={keyOf(dialog)} request={dialog} />;
}

function Modal({ onCancel, labelledBy, describedBy, children, testId }: { onCancel(): void; labelledBy: string; describedBy: string; children: ReactNode; testId: string }): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  // Layout effects: the cleanup runs before React removes the <dialog>, so it is closed while
  // still in the page and focus goes back to the control that opened it (or what took its place).
  useLayoutEffect(() => {
    const element = ref.current;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    const place = opener ? placeOf(opener) : null;
    if (element && !element.open) element.showModal();
    // showModal() focuses the first control (the checkbox); the safe choice should have it.
    element?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element?.close();
      if (place) restoreFocus(place);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}

function UploadDialog({ request }: { request: Extract<DialogRequest, { kind: 'upload' }> }): ReactElement {
  const { t, tn } = useTranslator();
  const [dontAsk, setDontAsk] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const cancel = (): void => request.resolve(null);
  return (
    <Modal onCancel={cancel} labelledBy={titleId} describedBy={bodyId} testId="upload-dialog">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          request.resolve({ dontAsk });
        }}
      >
        <div className="dialog__head">
          <UploadIcon className="dialog__icon" />
          <h2 id={titleId}>{t('upload.title', { host: request.host })}</h2>
        </div>
        <div id={bodyId} className="dialog__body">
          <p className="dialog__what">{request.name === null ? tn('upload.count', request.count) : tn('upload.what', request.count, { name: displayName(request.name) })}</p>
          <p>{t('upload.body', { host: request.host })}</p>
          <p className="muted small">{t('upload.notSent')}</p>
        </div>
        <label className="choice dialog__choice">
          <input type="checkbox" checked={dontAsk} onChange={(event) => setDontAsk(event.target.checked)} />
          {t('upload.dontAsk', { host: request.host })}
        </label>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={cancel} data-autofocus>
            {t('upload.cancel')}
          </button>
          <button type="submit" className="button button--primary">
            {t('upload.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ConfirmDialog({ request }: { request: Extract<DialogRequest, { kind: 'confirm' }> }): ReactElement {
  const { t } = useTranslator();
  const titleId = useId();
  const bodyId = useId();
  const cancel = (): void => request.resolve(null);
  // A path in the question ("A file already exists at …") is shown through displayName().
  const params = shownParams(request.params);
  return (
    <Modal onCancel={cancel} labelledBy={titleId} describedBy={bodyId} testId="confirm-dialog">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          request.resolve(true);
        }}
      >
        <div className="dialog__head">
          {request.danger ? <WarningIcon className="dialog__icon dialog__icon--danger" /> : null}
          <h2 id={titleId}>{t(request.title, params)}</h2>
        </div>
        <p id={bodyId} className="dialog__body">
          {t(request.body, params)}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={cancel} data-autofocus>
            {t('common.cancel')}
          </button>
          <button type="submit" className={`button ${request.danger ? 'button--danger' : 'button--primary'}`}>
            {t(request.confirm, params)}
          </button>
        </div>
      </form>
    </Modal>
  );
}
