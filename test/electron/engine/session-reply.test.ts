// clamd's session replies, from strings recorded from clamd 1.4 (and clamd's sources):
// what is a verdict, what ends the session, and that nothing else reads as clean.
import { describe, expect, test } from 'vitest';
import { isNoDescriptorReply, isReadTimeoutNotice, isSessionErrorReply, isSizeLimitReply, numberedReply, scanReplyVerdict } from '../../../electron/engine/clamd/session-reply.ts';

describe('numberedReply', () => {
  test('splits the request number from the reply', () => {
    expect(numberedReply('12: fd[10]: OK')).toEqual({ id: 12, reply: 'fd[10]: OK' });
    expect(numberedReply('1: PONG')).toEqual({ id: 1, reply: 'PONG' });
    expect(numberedReply('3: stream: Eicar-Test-Signature.UNOFFICIAL FOUND ')).toEqual({ id: 3, reply: 'stream: Eicar-Test-Signature.UNOFFICIAL FOUND' });
  });

  test('anything without one is not a session reply', () => {
    for (const raw of ['', 'PONG', 'COMMAND READ TIMED OUT', ': OK', '1:OK', 'x1: OK', '12345678901: OK']) expect(numberedReply(raw), raw).toBeNull();
  });
});

describe('scanReplyVerdict', () => {
  test('FILDES and INSTREAM replies: clean, found (with extended detection info too)', () => {
    expect(scanReplyVerdict('fd[10]: OK', 'fildes')).toEqual({ kind: 'clean', via: 'fildes' });
    expect(scanReplyVerdict('stream: OK', 'instream')).toEqual({ kind: 'clean', via: 'instream' });
    expect(scanReplyVerdict('fd[11]: Eicar-Test-Signature.UNOFFICIAL FOUND', 'fildes')).toEqual({ kind: 'found', signatures: ['Eicar-Test-Signature.UNOFFICIAL'], via: 'fildes' });
    expect(scanReplyVerdict('fd[7]: Win.Test.EICAR_HDB-1(44d88612fea8a8f36de82e1278abb02f:68) FOUND', 'fildes')).toEqual({ kind: 'found', signatures: ['Win.Test.EICAR_HDB-1'], via: 'fildes' });
  });

  test('a scan error is an error with clamd\'s words, never a verdict', () => {
    expect(scanReplyVerdict('fd[10]: Not a regular file ERROR', 'fildes')).toMatchObject({ kind: 'error', code: 'engine_error', message: expect.stringContaining('Not a regular file') });
    expect(scanReplyVerdict('fd[10]: Can\'t allocate memory ERROR', 'fildes')).toMatchObject({ kind: 'error', code: 'engine_error' });
    expect(scanReplyVerdict('INSTREAM size limit exceeded. ERROR', 'instream')).toMatchObject({ kind: 'error', code: 'engine_size_limit' });
  });

  test('nothing but an exact OK is clean', () => {
    for (const reply of ['', 'OK', 'fd[10]: OK OK', 'fd[10]:OK', 'fd[x]: OK', 'stream: ok', 'PONG', 'fd[10]: FOUND', 'stream: OK\0stream: OK']) {
      expect(scanReplyVerdict(reply, 'fildes').kind, reply).toBe('error');
    }
  });
});

describe('replies that end the session', () => {
  test('no descriptor received (and the older wording)', () => {
    expect(isNoDescriptorReply('No file descriptor received. ERROR')).toBe(true);
    expect(isNoDescriptorReply("FILDES: didn't receive file descriptor. ERROR")).toBe(true);
    expect(isNoDescriptorReply('fd[3]: No file descriptor received. ERROR')).toBe(false);
  });

  test('the stream size limit', () => {
    expect(isSizeLimitReply('INSTREAM size limit exceeded. ERROR')).toBe(true);
    expect(isSizeLimitReply('stream: OK')).toBe(false);
  });

  test('words about the session, not the file: the file is sent again', () => {
    for (const reply of ['PROTOCOL ERROR: ancillary data sent without FILDES. ERROR', 'Error processing command. ERROR', 'Command invalid inside IDSESSION. ERROR', 'UNKNOWN COMMAND']) {
      expect(isSessionErrorReply(reply), reply).toBe(true);
    }
    for (const reply of ['fd[10]: Not a regular file ERROR', 'stream: Heuristics.Limits.Exceeded ERROR', 'No file descriptor received. ERROR', 'INSTREAM size limit exceeded. ERROR', 'fd[1]: OK', 'PONG']) {
      expect(isSessionErrorReply(reply), reply).toBe(false);
    }
  });

  test('clamd\'s read timeout notice', () => {
    expect(isReadTimeoutNotice('COMMAND READ TIMED OUT\n')).toBe(true);
    expect(isReadTimeoutNotice('1: PONG')).toBe(false);
  });
});
