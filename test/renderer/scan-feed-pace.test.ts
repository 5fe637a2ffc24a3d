// Live scan events reach the list at most ten times a second, each time in an animation
// frame, and without frames (a hidden window) a timer still lets them through (scan-feed.ts).
// Fake timers and a frame every 16 ms: nothing here depends on the machine's timing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacedFrames } from '../../renderer/scans/scan-feed.ts';

let framesRun = true;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  framesRun = true;
  vi.stubGlobal('requestAnimationFrame', (callback: (time: number) => void) => setTimeout(() => framesRun && callback(performance.now()), 16));
  vi.stubGlobal('cancelAnimationFrame', (frame: ReturnType<typeof setTimeout>) => clearTimeout(frame));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('pacedFrames', () => {
  it('flushes in the next frame, then not before the gap has passed since the last flush', () => {
    const schedule = pacedFrames(100);
    const flushedAt: number[] = [];
    const flush = () => flushedAt.push(performance.now());
    const start = performance.now();
    schedule(flush);
    vi.advanceTimersByTime(16);
    expect(flushedAt.map((at) => at - start)).toEqual([16]);
    // Events right after: they wait for the gap, then the next frame.
    schedule(flush);
    vi.advanceTimersByTime(99);
    expect(flushedAt).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(flushedAt.map((at) => at - start)).toEqual([16, 16 + 100 + 16]);
    // After a quiet spell, the next events go out at the next frame again.
    vi.advanceTimersByTime(1_000);
    const quiet = performance.now();
    schedule(flush);
    vi.advanceTimersByTime(16);
    expect(flushedAt.at(-1)! - quiet).toBe(16);
  });

  it('flushes without frames (a hidden window) after the backstop, and not after being cancelled', () => {
    framesRun = false;
    const schedule = pacedFrames(100);
    const flush = vi.fn();
    schedule(flush);
    vi.advanceTimersByTime(249);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledOnce();
    const cancel = schedule(flush);
    cancel();
    vi.advanceTimersByTime(1_000);
    expect(flush).toHaveBeenCalledOnce();
  });
});
