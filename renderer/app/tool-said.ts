// What a program Verdict runs or asks said (freshclam, clamd, the keychain, the
// system, Verdict's core): its words, which are English whatever the UI's language,
// kept apart from the sentence that says in the UI's language what they mean.

export type ToolName = 'freshclam' | 'clamd' | 'keychain' | 'system' | 'core';

export interface ToolSaid {
  tool: ToolName;
  words: string;
}

/** The language these programs speak. */
export const TOOL_LANGUAGE = 'en';
