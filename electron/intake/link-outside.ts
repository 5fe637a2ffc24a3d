// A symbolic link met while walking a folder that leads out of it: not followed and
// nothing opened through it (a folder holding a link to ~/.ssh/id_rsa must not send
// that key), listed as skipped with why. A link the user names directly is followed.
import path from 'node:path';
import { LINK_OUTSIDE, type LinkOutsideParams } from '../../shared/scans/exclusion.ts';
import type { IntakeLinkOutside } from './intake-item.ts';

/** Whether `target` is `folder` or lies under it (both real paths: no links left in either). */
export function isWithin(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** The skipped item for a link out of the folder being walked (`folder`: its real path). */
export function linkOutside(linkPath: string, target: string, folder: string): IntakeLinkOutside {
  const params: LinkOutsideParams = { path: linkPath, target, folder };
  return { ok: false, excluded: true, path: linkPath, code: LINK_OUTSIDE, message: describeLinkOutside(params), params };
}

/** The English sentence (the record's message, the CLI's SKIP line); the UI words the same from its catalogues. */
export function describeLinkOutside({ path: linkPath, target }: Pick<LinkOutsideParams, 'path' | 'target'>): string {
  return `Not scanned: ${linkPath} is a symbolic link to ${target}, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.`;
}
