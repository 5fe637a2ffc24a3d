// Where files and folders are dropped; its buttons do the same for keyboard
// users. A dropped File becomes a path through the preload (files.pathFor).
import { useState, type DragEvent, type ReactElement } from 'react';
import { consentHostLabel } from '../../shared/settings/protection.ts';
import { api } from '../bridge/api.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { FileIcon, FolderIcon, UploadIcon } from '../icons/icons.tsx';
import { remoteOrigin } from '../privacy/upload-consent.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { pickAndSubmit, submitPaths } from './submit-paths.ts';

const carriesFiles = (event: DragEvent): boolean => Array.from(event.dataTransfer.types).includes('Files');

export function DropZone(): ReactElement {
  const { t } = useTranslator();
  const [active, setActive] = useState(false);
  const origin = useVerdict((state) => remoteOrigin(state.settings));

  const onDragOver = (event: DragEvent<HTMLElement>): void => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setActive(true);
  };
  const onDragLeave = (event: DragEvent<HTMLElement>): void => {
    // Leaving for a child element is not leaving the zone.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setActive(false);
  };
  const onDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setActive(false);
    const paths = Array.from(event.dataTransfer.files)
      .map((file) => api.files.pathFor(file))
      .filter((path) => path !== '');
    void submitPaths(paths);
  };

  return (
    <section
      className={`dropzone${active ? ' dropzone--active' : ''}`}
      aria-labelledby="dropzone-title"
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-testid="dropzone"
    >
      <UploadIcon className="dropzone__icon" />
      <div className="dropzone__text">
        <h2 id="dropzone-title" className="dropzone__title">
          {active ? t('drop.active') : t('drop.title')}
        </h2>
        <p className="dropzone__hint">{origin ? t('drop.hintRemote', { host: consentHostLabel(origin) }) : t('drop.hint')}</p>
      </div>
      <div className="dropzone__actions">
        <button type="button" className="button button--primary" onClick={() => void pickAndSubmit('files')}>
          <FileIcon />
          {t('drop.addFiles')}
        </button>
        <button type="button" className="button" onClick={() => void pickAndSubmit('folder')}>
          <FolderIcon />
          {t('drop.addFolder')}
        </button>
      </div>
    </section>
  );
}
