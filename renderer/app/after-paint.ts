// Work that may wait until the browser has painted what is already there. The
// first layout of the window is expensive (fonts, styles); a component that reads
// its size while mounting (the virtualized list) would pull that layout into
// React's first commit and make one long task of both.
import { startTransition, useEffect, useState } from 'react';

/**
 * Runs `run` in a task after the next frame: animation frames run just before the
 * frame's layout and paint, and a timer set in one fires after them. Frames do not
 * come while the window is hidden, so a timer stands in after `fallbackMs`.
 * Returns a cancel function.
 */
export function afterNextPaint(run: () => void, fallbackMs = 100): () => void {
  let done = false;
  let afterFrame: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    run();
  };
  const frame = requestAnimationFrame(() => {
    afterFrame = setTimeout(fire, 0);
  });
  const fallback = setTimeout(fire, fallbackMs);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    clearTimeout(afterFrame);
  };
}

/** False until the frame after the first render was painted, then true (rendered as a transition). */
export function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => startTransition(() => setPainted(true))), []);
  return painted;
}
