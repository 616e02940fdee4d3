/**
 * Canonical tool-call arguments (JSON text) → the object Anthropic's `tool_use.input` must be.
 * Empty text is an empty object (OpenAI sends `''` for a call without arguments); anything else
 * that is not a JSON object is reported by the caller, never replaced with `{}`: an empty input
 * in place of real arguments is exactly the bug that makes agents loop.
 */
import { isRecord, type JsonObject } from '@rosetta/protocols/common';

export function parseToolArguments(text: string): JsonObject | undefined {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
