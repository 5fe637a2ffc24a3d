// Dolphin (KDE): a KIO service menu, ~/.local/share/kio/servicemenus/verdict-scan.desktop
// (KDE Frameworks 5.85+; a user's service menu must be executable there). Type=Application
// rather than the older Type=Service: KIO accepts both, and desktop-file-validate accepts
// only this one with Actions and MimeType. Every file type derives from application/octet-stream
// (Qt's MIME database follows freedesktop.org here), so with inode/directory it matches all.
import path from 'node:path';
import { execArgument } from '../shell/autostart-entry.ts';
import { ICON_NAME, MARKER, SCAN_LABEL, keyFileString, type MenuFile, type MenuPlaces } from './menu-file.ts';

export const SERVICE_MENU_NAME = 'verdict-scan.desktop';

/** The Exec value: the command quoted per the Desktop Entry Specification, then %F (local paths, several). */
export function desktopExec(command: readonly string[]): string {
  return `${command.map(execArgument).join(' ')} %F`;
}

export function dolphinServiceMenu(command: readonly string[]): string {
  const exec = desktopExec(command);
  return [
    `# ${MARKER}`,
    '[Desktop Entry]',
    'Type=Application',
    'Name=Verdict',
    `Exec=${exec}`,
    `Icon=${ICON_NAME}`,
    'NoDisplay=true',
    'MimeType=application/octet-stream;inode/directory;',
    'Actions=scanWithVerdict;',
    'X-KDE-ServiceTypes=KonqPopupMenu/Plugin',
    'X-KDE-Priority=TopLevel',
    '',
    '[Desktop Action scanWithVerdict]',
    `Name=${keyFileString(SCAN_LABEL.en)}`,
    `Name[de]=${keyFileString(SCAN_LABEL.de)}`,
    `Icon=${ICON_NAME}`,
    `Exec=${exec}`,
    '',
  ].join('\n');
}

export function dolphinMenuFile(places: MenuPlaces, command: readonly string[]): MenuFile {
  return { manager: 'dolphin', path: path.join(places.dataHome, 'kio', 'servicemenus', SERVICE_MENU_NAME), ownership: 'own', content: dolphinServiceMenu(command), mode: 0o755 };
}
