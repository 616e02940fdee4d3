/**
 * Upstream `GenerateContentResponse` JSON → canonical response. Reads the first candidate only:
 * the gateway asks for one unless the client asked for more, and the canonical response holds
 * one. Upstream data is read leniently: odd fields are skipped, not refused.
 */
import {
  GatewayError,
  type AssistantContentPart,
  type CanonicalResponse,
  type FinishReason,
} from '@rosetta/canonical';
import { compact, isRecord, recordField, stringField, synthesizeToolCallId, type JsonObject } from '@rosetta/protocols/common';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { mapGeminiUsage } from './map-gemini-usage';
import { geminiCreated, geminiResponseId } from './gemini-response-fields';

export function convertGeminiResponse({ body }: { body: unknown }): CanonicalResponse {
  if (!isRecord(body)) throw noCandidates();
  const candidate = firstCandidate(body);
  const blockReason = stringField(recordField(body, 'promptFeedback') ?? {}, 'blockReason');
  if (!candidate && !blockReason) throw noCandidates();
  const content = (candidate ? candidateParts(candidate) : []).flatMap(convertResponsePart);
  const hasToolCalls = content.some((part) => part.type === 'tool_call');
  const finishReason: FinishReason = candidate
    ? mapGeminiFinishReason(stringField(candidate, 'finishReason'), hasToolCalls)
    : mapGeminiBlockReason(blockReason ?? '');
  return compact({
    id: geminiResponseId(body),
    // The upstream's own version string; the gateway puts the public model id in its place.
    model: stringField(body, 'modelVersion') ?? '',
    created: geminiCreated(body),
    content,
    finishReason,
    usage: mapGeminiUsage(body['usageMetadata']),
  });
}

/** Candidate 0 (proto3 JSON leaves `index: 0` out). */
export function firstCandidate(body: JsonObject): JsonObject | undefined {
  const candidates = body['candidates'];
  if (!Array.isArray(candidates)) return undefined;
  const candidate: unknown = candidates.find((c: unknown) => isRecord(c) && (c['index'] ?? 0) === 0);
  return isRecord(candidate) ? candidate : undefined;
}

export function candidateParts(candidate: JsonObject): unknown[] {
  const parts = recordField(candidate, 'content')?.['parts'];
  return Array.isArray(parts) ? parts : [];
}

/**
 * Thought → thinking, text → text, functionCall → tool_call, each keeping its signature. An
 * empty text part is kept only for the signature it carries; other parts (inline images, code
 * execution) have no canonical form.
 */
export function convertResponsePart(raw: unknown): AssistantContentPart[] {
  if (!isRecord(raw)) return [];
  const signatureValue = stringField(raw, 'thoughtSignature');
  const signature = signatureValue ? { protocol: 'gemini' as const, value: signatureValue } : undefined;
  const call = recordField(raw, 'functionCall');
  if (call) {
    const args = isRecord(call['args']) ? call['args'] : {};
    return [
      compact({
        type: 'tool_call',
        id: stringField(call, 'id') || synthesizeToolCallId(),
        name: stringField(call, 'name') ?? '',
        arguments: JSON.stringify(args),
        signature,
      }),
    ];
  }
  const text = stringField(raw, 'text') ?? '';
  const isText = raw['text'] !== undefined || signature !== undefined;
  if (!isText || (text === '' && !signature)) return [];
  return [compact({ type: raw['thought'] === true ? 'thinking' : 'text', text, signature })];
}

function noCandidates(): GatewayError {
  return new GatewayError('upstream_error', 'Upstream service error: response has no candidates', { status: 502 });
}
