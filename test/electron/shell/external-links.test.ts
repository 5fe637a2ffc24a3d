import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, shell } from './fake-electron.ts';
import { openExternalLink, safeExternalUrl } from '../../../electron/shell/external-links.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

describe('safeExternalUrl', () => {
  it.each([
    ['https://example.com/docs?q=1#x', 'https://example.com/docs?q=1#x'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://EXAMPLE.com/a', 'https://example.com/a'],
  ])('allows %s', (raw, normalized) => {
    expect(safeExternalUrl(raw)).toBe(normalized);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'smb://server/share',
    'verdict://app/index.html',
    'vbscript:msgbox',
    'https://user:pass@example.com/',
    'https://token@example.com/',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('refuses %s', (raw) => {
    expect(safeExternalUrl(raw)).toBeNull();
  });

  it('refuses values that are not strings', () => {
    expect(safeExternalUrl(undefined)).toBeNull();
    expect(safeExternalUrl({ toString: () => 'https://example.com' })).toBeNull();
  });
});

describe('openExternalLink', () => {
  beforeEach(() => resetFakeElectron());

  it('opens http(s) URLs in the OS browser', async () => {
    await expect(openExternalLink('https://example.com/help')).resolves.toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/help');
  });

  it('never hands other schemes to the OS', async () => {
    for (const raw of ['javascript:alert(1)', 'file:///etc/passwd', 'ms-msdt:/id', 'https://a:b@example.com']) {
      await expect(openExternalLink(raw)).resolves.toBe(false);
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});
