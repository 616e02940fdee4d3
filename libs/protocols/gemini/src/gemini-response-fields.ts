/** Envelope fields every Gemini response and stream chunk carries, read leniently. */
import { randomUUID } from 'node:crypto';
import type { StreamEvent } from '@rosetta/canonical';
import { compact, stringField, type JsonObject } from '@rosetta/protocols/common';
import { mapGeminiUsage } from './map-gemini-usage';

/** `responseId`, or a fresh one when the upstream sent none. */
export function geminiResponseId(body: JsonObject): string {
  return stringField(body, 'responseId') || `gemini-${randomUUID().replace(/-/g, '')}`;
}

/** Unix seconds of `createTime` (Vertex), else now. */
export function geminiCreated(body: JsonObject): number {
  const createTime = stringField(body, 'createTime');
  const millis = createTime === undefined ? Number.NaN : Date.parse(createTime);
  return Math.floor((Number.isNaN(millis) ? Date.now() : millis) / 1000);
}

/** A stream's `start`, from its first chunk. */
export function geminiStartEvent(chunk: JsonObject): StreamEvent {
  const usage = mapGeminiUsage(chunk['usageMetadata']);
  const start: StreamEvent = { type: 'start', id: geminiResponseId(chunk), model: stringField(chunk, 'modelVersion') ?? '', created: geminiCreated(chunk) };
  // Gemini counts the prompt on every chunk: the first one's count is the stream's (output comes later).
  return usage ? { ...start, usage: compact({ inputTokens: usage.inputTokens, outputTokens: 0, cachedInputTokens: usage.cachedInputTokens }) } : start;
}
