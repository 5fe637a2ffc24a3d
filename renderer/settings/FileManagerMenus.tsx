// "Scan with Verdict" in the file manager (Linux). For the AppImage and a checkout, Settings
// adds the entries for this user, lists the files it wrote and removes them again (the main
// process writes them: electron/file-manager-menus/). The .deb installs them for every user,
// so the section only lists them; where there is nothing to add, it is not shown.
import { useEffect, useState, type ReactElement } from 'react';
import type { FileManagerMenusStatus } from '../../shared/bridge/api.ts';
import type { Result } from '../../shared/result.ts';
import { displayName } from '../../shared/display-name.ts';
import { api, call } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';

export function FileManagerMenus(): ReactElement | null {
  const { t, locale } = useTranslator();
  const [status, setStatus] = useState<FileManagerMenusStatus | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void call(api.fileManagerMenus.status()).then((value) => {
      if (live && value) setStatus(value);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!status || status.provider === 'none') return null;

  const change = async (pending: Promise<Result<FileManagerMenusStatus>>): Promise<void> => {
    setBusy(true);
    const next = await call(pending);
    setBusy(false);
    if (next) setStatus(next);
  };
  const added = status.files.length > 0;
  return (
    <section className="card" aria-labelledby="file-manager-title" data-testid="file-manager-menus">
      <div className="card__head">
        <h2 id="file-manager-title">{t('settings.fileManager')}</h2>
        {status.provider === 'user' ? (
          <div className="field-row">
            <button type="button" className="button button--primary" disabled={busy} onClick={() => void change(api.fileManagerMenus.add(locale))} data-testid="file-manager-add">
              {added ? t('settings.fileManager.again') : t('settings.fileManager.add')}
            </button>
            {added ? (
              <button type="button" className="button" disabled={busy} onClick={() => void change(api.fileManagerMenus.remove())} data-testid="file-manager-remove">
                {t('settings.fileManager.remove')}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      <p className="muted">{status.provider === 'package' ? t('settings.fileManager.package') : t('settings.fileManager.hint')}</p>
      {added ? (
        <>
          <h3 className="privacy__subtitle">{t('settings.fileManager.files')}</h3>
          <ul className="privacy__list" data-testid="file-manager-files">
            {status.files.map((file) => (
              <li key={file.path}>
                {t(`settings.fileManager.${file.manager}`)}: <code>{displayName(file.path)}</code>
              </li>
            ))}
          </ul>
          {status.provider === 'user' ? <p className="muted small">{t('settings.fileManager.restart')}</p> : null}
        </>
      ) : (
        <p className="empty">{t('settings.fileManager.none')}</p>
      )}
    </section>
  );
}
