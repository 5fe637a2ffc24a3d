// Reading clamd's replies: only an unambiguous OK is clean.
import { describe, expect, test } from 'vitest';
import { chunkHeader, endpointLabel, parseInstreamReply } from '../../../electron/engine/instream/clamd-protocol.ts';
import { EngineError } from '../../../electron/engine/engine.ts';

function codeOf(reply: string): string {
  try {
    parseInstreamReply(reply);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return (error as EngineError).code;
  }
  throw new Error(`${JSON.stringify(reply)} was accepted as a verdict`);
}

describe('parseInstreamReply', () => {
  test('OK is clean', () => {
    expect(parseInstreamReply('stream: OK\0')).toEqual({ safe: true, detailed: 'clean', findings: [] });
  });

  test('FOUND is infected with the signature name, with or without the NUL and ExtendedDetectionInfo', () => {
    const infected = (name: string) => ({ safe: false, detailed: 'infected', findings: [{ name }] });
    expect(parseInstreamReply('stream: Win.Test.EICAR_HDB-1 FOUND\0')).toEqual(infected('Win.Test.EICAR_HDB-1'));
    expect(parseInstreamReply('stream: Eicar-Test-Signature.UNOFFICIAL FOUND\n')).toEqual(infected('Eicar-Test-Signature.UNOFFICIAL'));
    expect(parseInstreamReply('stream: Eicar-Signature(44d88612fea8a8f36de82e1278abb02f:68) FOUND\0')).toEqual(infected('Eicar-Signature'));
    expect(parseInstreamReply('stream: Name With Spaces FOUND\0')).toEqual(infected('Name With Spaces'));
  });

  test('errors, size limit, nothing and garbage are EngineErrors with their codes', () => {
    expect(codeOf('INSTREAM size limit exceeded. ERROR\0')).toBe('engine_size_limit');
    expect(codeOf('stream: Can\'t allocate memory ERROR\0')).toBe('engine_error');
    expect(codeOf('')).toBe('engine_unavailable');
    expect(codeOf('\0')).toBe('engine_unavailable');
    expect(codeOf('PONG\0')).toBe('engine_error');
    expect(codeOf('stream: OK\0stream: OK\0')).toBe('engine_error');
    expect(codeOf('stream: OKAY\0')).toBe('engine_error');
    expect(codeOf('stream:  FOUND\0')).toBe('engine_error');
    expect(codeOf('stream: X FOUND\0INSTREAM size limit exceeded. ERROR\0')).toBe('engine_size_limit');
  });

  test('a garbage reply is quoted, shortened and made printable', () => {
    const error = (() => {
      try {
        parseInstreamReply(`\x01\x02${'z'.repeat(500)}`);
      } catch (e) {
        return e as EngineError;
      }
      throw new Error('accepted');
    })();
    expect(error.message).toContain('??zzz');
    expect(error.message.length).toBeLessThan(200);
  });
});

test('chunk headers are 4-byte big-endian lengths', () => {
  expect([...chunkHeader(0x01020304)]).toEqual([1, 2, 3, 4]);
  expect([...chunkHeader(0)]).toEqual([0, 0, 0, 0]);
});

test('endpoint labels', () => {
  expect(endpointLabel({ socketPath: '/run/clamav/clamd.ctl' })).toBe('unix:/run/clamav/clamd.ctl');
  expect(endpointLabel({ host: '127.0.0.1', port: 3310 })).toBe('tcp:127.0.0.1:3310');
});
