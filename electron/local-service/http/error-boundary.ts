// One error boundary per request. A throw inside an event listener (a busboy
// part event, a stream's data or close) does not reach the promise of the
// request: it escapes into the emitter and ends the process. Every listener a
// request registers goes through guard(), so such a throw becomes that
// request's answer instead.

/** Wraps `listener` so that anything it throws is handed to `onError` instead of escaping into the emitter. */
export function guardListener<A extends unknown[]>(onError: (error: Error) => void, listener: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      listener(...args);
    } catch (error) {
      onError(asError(error));
    }
  };
}

export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
