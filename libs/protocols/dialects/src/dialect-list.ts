import type { DialectId } from '@rosetta/canonical';
import { anthropicMessagesDialect } from '@rosetta/protocols/anthropic-messages';
import type { ClientDialect } from '@rosetta/protocols/common';
import { geminiDialect } from '@rosetta/protocols/gemini';
import { openAIChatDialect } from '@rosetta/protocols/openai-chat';
import { openAIResponsesDialect } from '@rosetta/protocols/openai-responses';

/**
 * Every client dialect Rosetta answers, listed once: the data plane renders errors and finds keys
 * by them, unknown paths are answered in the envelope of the dialect that owns them. Checked in
 * order; the last owns every path (dialect A). A new dialect is one more line here
 * (docs/architecture.md).
 */
export const DIALECTS: readonly ClientDialect[] = [geminiDialect, anthropicMessagesDialect, openAIResponsesDialect, openAIChatDialect];

const BY_ID = new Map(DIALECTS.map((d) => [d.id, d]));

export function dialect(id: DialectId): ClientDialect {
  return BY_ID.get(id)!;
}

