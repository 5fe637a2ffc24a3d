// The freshclam.conf Verdict writes, with a user's freshclam-extra.conf: mirrors,
// proxies and extra databases join it; where files go and who owns them stay Verdict's.
import { describe, expect, test } from 'vitest';
import { freshclamConfigText, parseFreshclamExtra } from '../../../../electron/engine/freshclam/freshclam-config.ts';

describe('freshclam-extra.conf', () => {
  test('takes freshclam.conf\'s mirror, proxy and database keys (any case), skips comments, names what it ignores', () => {
    const extra = parseFreshclamExtra(
      ['# my mirror', '', 'privatemirror http://mirror.lan', 'DatabaseCustomURL https://x.example/a.ndb', 'HTTPProxyServer proxy.lan', 'DatabaseDirectory /var/lib/clamav', 'NotifyClamd /etc/clamav/clamd.conf', 'ExcludeDatabase', 'OnUpdateExecute rm -rf ~'].join('\r\n'),
    );
    expect(extra.lines).toEqual(['PrivateMirror http://mirror.lan', 'DatabaseCustomURL https://x.example/a.ndb', 'HTTPProxyServer proxy.lan']);
    expect(extra.ignored).toEqual(['DatabaseDirectory', 'NotifyClamd', 'ExcludeDatabase', 'OnUpdateExecute']);
  });

  test('joins the config: a key it sets replaces Verdict\'s default, the folder stays Verdict\'s', () => {
    const text = freshclamConfigText({ databaseDir: '/d/clamav-db', extra: ['MaxAttempts 5', 'DatabaseMirror mirror.lan', 'ExtraDatabase urlhaus'] });
    const lines = text.trim().split('\n');
    expect(lines).toContain('DatabaseDirectory /d/clamav-db');
    expect(lines.filter((line) => line.startsWith('MaxAttempts'))).toEqual(['MaxAttempts 5']);
    expect(lines.filter((line) => line.startsWith('DatabaseMirror'))).toEqual(['DatabaseMirror mirror.lan']);
    expect(lines.at(-1)).toBe('ExtraDatabase urlhaus');
    expect(freshclamConfigText({ databaseDir: '/d' })).not.toContain('freshclam-extra.conf');
  });
});
