// Removable drives (issue 29 §2): the one state the capability names. A drive is seen in
// the OS's list of mounts (Linux: the mount table; macOS: /Volumes; Windows: drive letters),
// identified (label, filesystem UUID, size), then scanned, offered or left alone as the
// settings say (drive-policy.ts). A drive that goes while its job runs cancels the job.
import type { DriveSettings } from '../../shared/settings/drives.ts';

/** A mount as the OS's list shows it, before it is identified. */
export interface DriveMount {
  /** Where its files are: `/media/alice/USBSTICK`, `/Volumes/USBSTICK`, `E:\`. */
  mountPoint: string;
  /** The block device (`/dev/sdb1`), or the volume's id where there is none. */
  device: string;
  fsType: string;
}

/** An identified drive: what the notice, the job's name and *Always for this drive* use. */
export interface Drive extends DriveMount {
  /** Its filesystem label, else the mount point's last part (udisks names the folder after the label). */
  label: string;
  /** Its filesystem UUID (FAT: `ABCD-1234`), or null when it has none (tmpfs, some images). */
  uuid: string | null;
  /** Its filesystem's size in bytes, or null when it cannot be told. */
  sizeBytes: number | null;
}

/** What happens to a drive when it is mounted. */
export type DriveDecision = 'scan' | 'offer' | 'ignore';

/** A drive offered to the user (the notice's *Scan* and *Not now*). */
export interface DriveOffer {
  drive: Drive;
  /** Why it was offered rather than scanned: the setting says ask, or it is over the size cap. */
  why: 'ask' | 'too-large';
}

/** Where the OS's mounts come from; a platform's lister (linux-mounts.ts, mac-volumes.ts, windows-drives.ts). */
export interface DriveSource {
  /** The removable mounts now. */
  list(): Promise<DriveMount[]>;
  /** Its label, UUID and size; null: not a drive to act on (an internal disk, a disk image). */
  identify(mount: DriveMount): Promise<Drive | null>;
}

/** The capability's state while the core runs. */
export interface DrivesState {
  readonly source: DriveSource;
  readSettings(): Promise<DriveSettings>;
  /** Mounted drives seen, by mount point (the first listing is taken as already there: not offered). */
  known: Map<string, DriveMount> | null;
  /** Drives identified, by mount point. */
  drives: Map<string, Drive>;
  /** The scan job of each drive while it runs, by mount point. */
  jobs: Map<string, number>;
  /** Offers not answered yet, by mount point. */
  offers: Map<string, DriveOffer>;
  listeners: Set<(event: DriveEvent) => void>;
  /** A check in progress: the next waits for it (the poller and a caller never overlap). */
  checking: Promise<void> | null;
  closed: boolean;
}

export type DriveEvent =
  | { type: 'offer'; offer: DriveOffer }
  | { type: 'scanning'; drive: Drive; jobId: number }
  /** *Not now*: the offer is withdrawn (from the tray too). */
  | { type: 'declined'; drive: Drive }
  | { type: 'removed'; drive: Drive; jobId: number | null };
