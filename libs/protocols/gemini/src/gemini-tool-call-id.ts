/**
 * The Gemini API often leaves `functionCall.id` out, and its clients then answer by name. A call
 * read from a dialect-C conversation without an id gets one derived from its position, so the
 * same history always yields the same id: the function response in the next turn (matched by
 * name) and every later request agree on it, without the gateway remembering anything.
 */
const PREFIX = 'call_gemini_';

export function geminiToolCallId(contentIndex: number, partIndex: number): string {
  return `${PREFIX}${contentIndex}_${partIndex}`;
}

/** Ids of this form were invented here, so a Gemini upstream is not shown them. */
export function isSyntheticGeminiToolCallId(id: string): boolean {
  return id.startsWith(PREFIX);
}
