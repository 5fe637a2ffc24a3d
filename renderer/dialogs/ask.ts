// Opens a dialog and waits for the answer: `await askUploadConsent(…)` reads
// like a question, and the store keeps which dialog is open.
import { verdictStore } from '../store/store.ts';
import type { DialogRequest, UploadAnswer } from './dialog-request.ts';

type Without<T> = T extends unknown ? Omit<T, 'resolve' | 'kind'> : never;

function open<A>(build: (resolve: (answer: A | null) => void) => DialogRequest): Promise<A | null> {
  return new Promise((resolve) => {
    let done = false;
    const answer = (value: A | null): void => {
      if (done) return;
      done = true;
      if (verdictStore.getState().dialog === request) verdictStore.getState().closeDialog();
      resolve(value);
    };
    const request = build(answer);
    verdictStore.getState().openDialog(request);
  });
}

/** "This file will be sent to <host>": null when the user cancels. */
export function askUploadConsent(question: Without<Extract<DialogRequest, { kind: 'upload' }>>): Promise<UploadAnswer | null> {
  return open<UploadAnswer>((resolve) => ({ kind: 'upload', ...question, resolve }));
}

/** true when the user confirms. */
export async function confirmAction(question: Without<Extract<DialogRequest, { kind: 'confirm' }>>): Promise<boolean> {
  return (await open<true>((resolve) => ({ kind: 'confirm', ...question, resolve }))) === true;
}
