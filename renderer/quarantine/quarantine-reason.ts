// A quarantine error in the UI's language: worded from its code and parameters
// (shared/quarantine/entry.ts), or the core's English sentence when the code is
// not a quarantine one or a parameter the wording needs is missing. The path or
// folder it names (and the core's sentence, which quotes them) is shown through
// displayName(), here for every place that shows the reason.
import { displayName } from '../../shared/display-name.ts';
import { isQuarantineErrorCode, quarantineErrorParamsSchema } from '../../shared/quarantine/entry.ts';
import type { AppError } from '../../shared/result.ts';
import type { MessageKey, MessageParams, Translator } from '../i18n/messages.ts';
import type { ToolSaid } from '../app/tool-said.ts';

export function quarantineReason({ t }: Pick<Translator, 't'>, error: AppError): string {
  const parsed = quarantineErrorParamsSchema.safeParse(error.params ?? {});
  if (!isQuarantineErrorCode(error.code) || !parsed.success) return displayName(error.message);
  const { path, folder, cause } = parsed.data;
  /** The message, when every parameter it names is there. */
  const say = (key: MessageKey, params: Record<string, string | undefined> = {}): string => {
    const filled: MessageParams = {};
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined) return displayName(error.message);
      filled[name] = displayName(value);
    }
    return t(key, filled);
  };
  switch (error.code) {
    case 'not_found':
      return say(cause === 'not_allowed' ? 'quarantineError.notAllowed' : 'quarantineError.notFound');
    case 'invalid_state':
      if (cause === 'not_unsafe') return say('quarantineError.notUnsafe');
      if (cause === 'in_quarantine') return say('quarantineError.inQuarantine');
      return say(cause === 'not_in_quarantine' ? 'quarantineError.notInQuarantine' : 'quarantineError.invalidState');
    case 'busy':
      return say('quarantineError.busy');
    case 'hash_mismatch':
      if (cause === 'not_fingerprinted') return say('quarantineError.notFingerprinted');
      if (cause === 'quarantined_copy_changed') return say('quarantineError.quarantinedCopyChanged');
      return say('quarantineError.changedSinceScan', { path });
    case 'restore_conflict':
      return say('quarantineError.restoreConflict', { path });
    case 'target_folder_missing':
      return say('quarantineError.targetFolderMissing', { folder });
    case 'original_path_unknown':
      return say('quarantineError.originalPathUnknown');
    case 'source_missing':
      return say('quarantineError.sourceMissing', { path });
    case 'not_regular_file':
      return say('quarantineError.notRegularFile', { path });
    case 'invalid_target':
      return say('quarantineError.invalidTarget');
    case 'file_lost':
      return say('quarantineError.fileLost');
    case 'invalid_request':
      return say('quarantineError.invalidRequest');
    case 'io_error':
      return path === undefined ? say('quarantineError.ioError') : say('quarantineError.ioErrorAt', { path });
  }
}

/**
 * How to show the reason: the sentence in the UI's language, or, when only the core's English
 * sentence says it, that sentence as the core's words (under one in the UI's language, marked English).
 */
export function quarantineReasonShown(translate: Pick<Translator, 't'>, error: AppError): { text: string } | { said: ToolSaid } {
  const text = quarantineReason(translate, error);
  return text === displayName(error.message) ? { said: { tool: 'core', words: error.message } } : { text };
}
