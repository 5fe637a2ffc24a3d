// The decision after a verdict, and which watched folder's action applies.
import { describe, expect, it } from 'vitest';
import { decideThreatResponse, threatActionFor } from '../../../electron/quarantine/threat-response.ts';
import { findWatchedFolder } from '../../../electron/exclusions/watched-folder.ts';

const SHA = 'a'.repeat(64);
const unsafe = { id: 'r1', path: '/home/u/Downloads/x.exe', origin: 'watch', status: 'completed', safe: false, sha256: SHA } as const;
const folders = [
  { id: 'dl', path: '/home/u/Downloads', threatAction: 'quarantine' as const },
  { id: 'docs', path: '/home/u/Documents', threatAction: 'notify' as const },
  { id: 'inner', path: '/home/u/Downloads/keep', threatAction: 'notify' as const },
];
const context = { manualAction: 'notify' as const, folders, isAllowed: () => false, platform: 'linux' as const };

describe('decideThreatResponse', () => {
  it('does nothing for safe, failed, skipped or pending records', () => {
    expect(decideThreatResponse({ ...unsafe, safe: true }, context)).toEqual({ kind: 'none' });
    expect(decideThreatResponse({ ...unsafe, status: 'failed', safe: null }, context)).toEqual({ kind: 'none' });
    expect(decideThreatResponse({ ...unsafe, status: 'skipped', safe: null }, context)).toEqual({ kind: 'none' });
    expect(decideThreatResponse({ ...unsafe, status: 'processing', safe: null }, context)).toEqual({ kind: 'none' });
  });

  it('quarantines by the watched folder\'s action, the deepest folder winning', () => {
    expect(decideThreatResponse(unsafe, context)).toEqual({ kind: 'quarantine', request: { path: unsafe.path, sha256: SHA, recordId: 'r1' } });
    expect(decideThreatResponse({ ...unsafe, path: '/home/u/Downloads/keep/y.exe' }, context)).toEqual({ kind: 'notify' });
    expect(decideThreatResponse({ ...unsafe, path: '/home/u/Documents/y.exe' }, context)).toEqual({ kind: 'notify' });
  });

  it('uses the manual action for every other origin, even inside a watched folder', () => {
    expect(decideThreatResponse({ ...unsafe, origin: 'drop' }, context)).toEqual({ kind: 'notify' });
    expect(decideThreatResponse({ ...unsafe, origin: 'dialog' }, { ...context, manualAction: 'quarantine' })).toMatchObject({ kind: 'quarantine' });
  });

  it('allowed content is remembered as allowed, whatever the action', () => {
    expect(decideThreatResponse(unsafe, { ...context, isAllowed: (sha) => sha === SHA })).toEqual({ kind: 'allowed', by: 'content' });
  });

  it('a verdict whose every finding name is allowed is allowed by name, from any engine or service and without a digest', () => {
    const names = { ...context, isNameAllowed: (name: string) => name === 'Win.Tool.Foo-123' || name === 'PUA.Win.Bar' };
    const found = (...list: string[]) => ({ ...unsafe, findings: list.map((name) => ({ name, engine: 'remote-av' })) });
    expect(decideThreatResponse(found('Win.Tool.Foo-123'), names)).toEqual({ kind: 'allowed', by: 'name' });
    expect(decideThreatResponse({ ...found('Win.Tool.Foo-123', 'PUA.Win.Bar'), sha256: null }, names)).toEqual({ kind: 'allowed', by: 'name' });
    // One finding not allowed: still a threat (quarantined here by the folder's action).
    expect(decideThreatResponse(found('Win.Tool.Foo-123', 'Win.Trojan.Other'), names)).toMatchObject({ kind: 'quarantine' });
    // Names match exactly; a threat with no finding named is never allowed by name.
    expect(decideThreatResponse(found('win.tool.foo-123'), names)).toMatchObject({ kind: 'quarantine' });
    expect(decideThreatResponse(found(), names)).toMatchObject({ kind: 'quarantine' });
    // Content first: the same bytes allowed by content say so.
    expect(decideThreatResponse(found('Win.Tool.Foo-123'), { ...names, isAllowed: () => true })).toEqual({ kind: 'allowed', by: 'content' });
  });

  it('content the user restored to this very path is not taken again (the watcher sees it reappear)', () => {
    const restored = { ...context, wasRestoredTo: (sha: string, path: string) => sha === SHA && path === unsafe.path };
    expect(decideThreatResponse(unsafe, restored)).toEqual({ kind: 'notify' });
    expect(decideThreatResponse({ ...unsafe, path: '/home/u/Downloads/copy.exe' }, restored)).toMatchObject({ kind: 'quarantine' });
  });

  it('without a digest it only notifies (the content cannot be checked before a move)', () => {
    expect(decideThreatResponse({ ...unsafe, sha256: null }, context)).toEqual({ kind: 'notify' });
  });

  it('a watched file outside every folder (the folder was removed) is only notified', () => {
    expect(threatActionFor({ path: '/elsewhere/x', origin: 'watch' }, context)).toBe('notify');
  });
});

describe('findWatchedFolder', () => {
  it('finds the deepest folder containing the file, and none for a sibling with a shared prefix', () => {
    expect(findWatchedFolder('/home/u/Downloads/keep/a', folders, { platform: 'linux' })?.id).toBe('inner');
    expect(findWatchedFolder('/home/u/Downloads/a', folders, { platform: 'linux' })?.id).toBe('dl');
    expect(findWatchedFolder('/home/u/DownloadsOld/a', folders, { platform: 'linux' })).toBeNull();
    expect(findWatchedFolder('/home/u/Downloads', folders, { platform: 'linux' })).toBeNull();
  });

  it('ignores case where the platform does', () => {
    expect(findWatchedFolder('/HOME/u/downloads/a', folders, { platform: 'darwin' })?.id).toBe('dl');
    expect(findWatchedFolder('/HOME/u/downloads/a', folders, { platform: 'linux' })).toBeNull();
  });
});
