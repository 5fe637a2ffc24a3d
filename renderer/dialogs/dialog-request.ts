// The dialogs the renderer can ask (at most one open at a time, held in the
// store): the upload consent question and a confirmation. Each carries the
// function that answers the caller's promise; null is "cancelled".
import type { MessageKey, MessageParams } from '../i18n/messages.ts';

export interface UploadAnswer {
  /** Remember the host: do not ask again for it. */
  dontAsk: boolean;
}

export type DialogRequest =
  | {
      kind: 'upload';
      /** What is shown: the host of the remote service's origin. */
      host: string;
      /** How many files or folders are about to be sent, and the first one's name. */
      count: number;
      name: string | null;
      resolve(answer: UploadAnswer | null): void;
    }
  | {
      kind: 'confirm';
      title: MessageKey;
      body: MessageKey;
      params?: MessageParams;
      confirm: MessageKey;
      /** The confirm button is red (it cannot be undone). */
      danger?: boolean;
      resolve(answer: true | null): void;
    };
