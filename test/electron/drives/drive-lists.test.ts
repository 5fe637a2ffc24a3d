// The OS's lists of drives, parsed from recorded outputs: Linux's mountinfo (proc(5)), udev's
// link names and blkid, macOS's /Volumes and `diskutil info`, Windows' Win32_LogicalDisk as JSON.
// Outside input, so fast-check too: any text parses without throwing, and any mount point's
// bytes, escaped as the kernel escapes them, come back exactly.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { linkNaming, parseBlkidExport, unescapeUdevName } from '../../../electron/drives/linux-identity.ts';
import { linuxMountRoots, parseMountInfo, removableMounts } from '../../../electron/drives/linux-mounts.ts';
import { macVolumeMounts, parseDiskutilInfo } from '../../../electron/drives/mac-volumes.ts';
import { parseLogicalDisks } from '../../../electron/drives/windows-drives.ts';
import { decodeFileName } from '../../../shared/file-name-bytes.ts';

// A laptop's table (Debian 13, GNOME): root, a bind mount, tmpfs, a USB stick with a space in its label, an SD card, a network share.
const MOUNTINFO = [
  '22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro',
  '25 22 0:22 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=1626544k,mode=755',
  '31 22 259:2 /srv/data /home/alice/data rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw',
  '120 25 0:51 / /run/user/1000 rw,nosuid,nodev,relatime shared:301 - tmpfs tmpfs rw,size=813268k,mode=700,uid=1000,gid=1000',
  '610 22 8:17 / /media/alice/MY\\040STICK rw,nosuid,nodev,relatime shared:330 - vfat /dev/sdb1 rw,uid=1000,gid=1000,fmask=0022,dmask=0022,codepage=437,iocharset=ascii,shortname=mixed,utf8,errors=remount-ro',
  '611 22 179:1 / /run/media/alice/3A2F-1C0D rw,nosuid,nodev,relatime - exfat /dev/mmcblk0p1 rw,uid=1000',
  '612 22 0:60 / /media/alice/share rw,relatime - cifs //nas/share rw,vers=3.1.1',
  '613 22 8:33 /photos /media/alice/BIND rw,relatime - ext4 /dev/sdc1 rw',
].join('\n');

describe('Linux: the mount table', () => {
  test('the removable drives are the device mounts directly in a media folder', () => {
    const roots = linuxMountRoots('alice');
    expect(roots).toEqual(['/media/alice', '/run/media/alice', '/media']);
    expect(removableMounts(parseMountInfo(Buffer.from(MOUNTINFO)), roots)).toEqual([
      { mountPoint: '/media/alice/MY STICK', device: '/dev/sdb1', fsType: 'vfat' },
      { mountPoint: '/run/media/alice/3A2F-1C0D', device: '/dev/mmcblk0p1', fsType: 'exfat' },
    ]);
  });

  test('a mount over a mount shows the last one; an unmount of the top one shows the first again', () => {
    const first = '700 22 8:17 / /media/alice/STICK rw - vfat /dev/sdb1 rw';
    const over = '701 700 0:70 / /media/alice/STICK rw - tmpfs tmpfs rw';
    expect(removableMounts(parseMountInfo(Buffer.from(`${first}\n${over}`)), ['/media/alice'])).toEqual([]);
    expect(removableMounts(parseMountInfo(Buffer.from(first)), ['/media/alice'])).toEqual([{ mountPoint: '/media/alice/STICK', device: '/dev/sdb1', fsType: 'vfat' }]);
  });

  test('any mount point, escaped as the kernel escapes it, comes back as its exact bytes', () => {
    const nameByte = fc.integer({ min: 1, max: 255 }).filter((byte) => byte !== 0x2f);
    fc.assert(
      fc.property(fc.array(nameByte, { minLength: 1, maxLength: 40 }), (bytes) => {
        // proc(5): space, tab, newline and backslash are written as \ooo; other bytes raw.
        const escaped = Buffer.concat(bytes.map((byte) => ([0x20, 0x09, 0x0a, 0x5c].includes(byte) ? Buffer.from(`\\${byte.toString(8).padStart(3, '0')}`) : Buffer.from([byte]))));
        const line = Buffer.concat([Buffer.from('700 22 8:17 / /media/alice/'), escaped, Buffer.from(' rw shared:3 - vfat /dev/sdb1 rw')]);
        const entries = parseMountInfo(line);
        expect(entries).toHaveLength(1);
        expect(entries[0]!.mountPoint).toBe(`/media/alice/${decodeFileName(Uint8Array.from(bytes))}`);
      }),
    );
  });

  test('any text parses without throwing, to entries that have every field', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        for (const entry of parseMountInfo(Buffer.from(bytes))) expect(typeof entry.mountPoint === 'string' && typeof entry.device === 'string').toBe(true);
      }),
    );
  });

  test("udev's link names and blkid's export name a device's label and UUID", () => {
    expect(unescapeUdevName('MY\\x20STICK')).toBe('MY STICK');
    const links = new Map([
      ['3A2F-1C0D', '/dev/mmcblk0p1'],
      ['0b6a2c1e-9a1d-4b7e-8f3c-2d5e6f708192', '/dev/sdb1'],
    ]);
    expect(linkNaming('/dev/sdb1', links)).toBe('0b6a2c1e-9a1d-4b7e-8f3c-2d5e6f708192');
    expect(linkNaming('/dev/sdc1', links)).toBeNull();
    const blkid = parseBlkidExport('DEVNAME=/dev/loop0\nLABEL=TESTDRV\nUUID=2ea41ec1-c19d-4305-9683-3569dddb2ea1\nBLOCK_SIZE=1024\nTYPE=ext4\n');
    expect([blkid.get('LABEL'), blkid.get('UUID'), blkid.get('TYPE')]).toEqual(['TESTDRV', '2ea41ec1-c19d-4305-9683-3569dddb2ea1', 'ext4']);
  });
});

// `diskutil info /Volumes/KINGSTON` for a FAT32 USB stick (macOS 15), shortened.
const DISKUTIL_STICK = `   Device Identifier:         disk4s1
   Device Node:               /dev/disk4s1
   Whole:                     No
   Part of Whole:             disk4

   Volume Name:               KINGSTON
   Mounted:                   Yes
   Mount Point:               /Volumes/KINGSTON

   Partition Type:            DOS_FAT_32
   File System Personality:   MS-DOS FAT32
   Type (Bundle):             msdos
   Name (User Visible):       MS-DOS (FAT32)

   Protocol:                  USB
   Device Location:           External
   Removable Media:           Removable
   Media Removal:             Software-Activated

   Disk Size:                 15.5 GB (15502147584 Bytes) (exactly 30277632 512-Byte-Units)
   Volume Total Space:        15.5 GB (15498100736 Bytes) (exactly 30269728 512-Byte-Units)
   Volume UUID:               0E239BC6-F960-3107-89CF-1C97F78BB46B
   Disk / Partition UUID:     8AD5E3F6-01
`;

describe('macOS: /Volumes and diskutil', () => {
  test('the start-up disk (a link to /) and hidden entries are not drives', () => {
    expect(
      macVolumeMounts([
        { name: 'Macintosh HD', isSymlink: true },
        { name: 'KINGSTON', isSymlink: false },
        { name: '.timemachine', isSymlink: false },
      ]),
    ).toEqual([{ mountPoint: '/Volumes/KINGSTON', device: '', fsType: '' }]);
  });

  test("a USB stick's name, UUID, size and that it is removable", () => {
    expect(parseDiskutilInfo(DISKUTIL_STICK)).toEqual({ label: 'KINGSTON', uuid: '0E239BC6-F960-3107-89CF-1C97F78BB46B', sizeBytes: 15498100736, device: '/dev/disk4s1', fsType: 'msdos', removable: true });
    const internal = DISKUTIL_STICK.replace('Device Location:           External', 'Device Location:           Internal').replace('Removable Media:           Removable', 'Removable Media:           Fixed').replace('Protocol:                  USB', 'Protocol:                  Apple Fabric');
    expect(parseDiskutilInfo(internal).removable).toBe(false);
    const dmg = DISKUTIL_STICK.replace('Protocol:                  USB', 'Protocol:                  Disk Image');
    expect(parseDiskutilInfo(dmg).removable).toBe(false);
  });
});

// PowerShell: Get-CimInstance Win32_LogicalDisk | Select-Object DeviceID,DriveType,VolumeName,VolumeSerialNumber,Size,FileSystem | ConvertTo-Json -Compress
const LOGICAL_DISKS = JSON.stringify([
  { DeviceID: 'C:', DriveType: 3, VolumeName: 'Windows', VolumeSerialNumber: '5A1B2C3D', Size: 511101108224, FileSystem: 'NTFS' },
  { DeviceID: 'D:', DriveType: 5, VolumeName: null, VolumeSerialNumber: null, Size: null, FileSystem: null },
  { DeviceID: 'E:', DriveType: 2, VolumeName: 'SANDISK', VolumeSerialNumber: '3A2F1C0D', Size: 30765219840, FileSystem: 'FAT32' },
  { DeviceID: 'F:', DriveType: 3, VolumeName: 'Backup', VolumeSerialNumber: 'A1B2C3D4', Size: 2000381014016, FileSystem: 'NTFS' },
  { DeviceID: 'Z:', DriveType: 4, VolumeName: 'share', VolumeSerialNumber: '11112222', Size: 1000, FileSystem: 'NTFS' },
]);

describe('Windows: drive letters', () => {
  test('removable and local disks but the system drive, with the serial shown as a FAT UUID', () => {
    expect(parseLogicalDisks(LOGICAL_DISKS, 'C:')).toEqual([
      { mountPoint: 'E:\\', device: 'E:', fsType: 'FAT32', label: 'SANDISK', uuid: '3A2F-1C0D', sizeBytes: 30765219840 },
      { mountPoint: 'F:\\', device: 'F:', fsType: 'NTFS', label: 'Backup', uuid: 'A1B2-C3D4', sizeBytes: 2000381014016 },
    ]);
    // One disk: ConvertTo-Json gives an object, not an array.
    expect(parseLogicalDisks(JSON.stringify({ DeviceID: 'G:', DriveType: 2, VolumeName: '', VolumeSerialNumber: '', Size: '8000000000', FileSystem: 'exFAT' }))).toEqual([
      { mountPoint: 'G:\\', device: 'G:', fsType: 'exFAT', label: 'G:', uuid: null, sizeBytes: 8_000_000_000 },
    ]);
  });

  test('any text parses without throwing', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => void expect(Array.isArray(parseLogicalDisks(text))).toBe(true)));
  });
});
