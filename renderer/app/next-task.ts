// Yielding between start-up steps (see main.tsx), so each runs in a task of its own.

/** Resolves in a later task: work before and after it never adds up to one long task. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
