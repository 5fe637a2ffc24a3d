// What a newly mounted drive gets, from the settings: `never` leaves it alone; a drive
// over the size cap is only ever offered; *Always for this drive* and `auto` scan it; `ask` offers it.
import { GB, type DriveSettings } from '../../shared/settings/drives.ts';
import type { Drive, DriveDecision, DriveOffer } from './drive.ts';

export function decideDrive(drive: Pick<Drive, 'uuid' | 'sizeBytes'>, settings: DriveSettings): { decision: DriveDecision; why?: DriveOffer['why'] } {
  if (settings.when === 'never') return { decision: 'ignore' };
  // A drive whose size is unknown is not known to be under the cap: offered, never scanned by itself.
  const overCap = drive.sizeBytes === null || drive.sizeBytes > settings.autoScanMaxGb * GB;
  const always = drive.uuid !== null && settings.alwaysScan.some((entry) => entry.uuid === drive.uuid);
  if ((always || settings.when === 'auto') && !overCap) return { decision: 'scan' };
  return { decision: 'offer', why: settings.when === 'ask' && !always ? 'ask' : 'too-large' };
}
