// The width of an element in CSS pixels, kept up to date: a chart drawn at its real width keeps
// its labels at their real size in a narrow or zoomed window (a scaled viewBox would shrink them).
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export function useWidth<T extends Element>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => {
      const next = Math.round(element.getBoundingClientRect().width);
      if (next > 0) setWidth(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
