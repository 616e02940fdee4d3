/**
 * Chat Completions has no place for signed reasoning. OpenRouter's `reasoning_details` is the
 * de-facto extension clients already round-trip, so thinking with a signature (and redacted
 * thinking) travels there: a dialect-A client that sends the assistant turn back unchanged keeps
 * a Claude or Gemini tool loop with thinking valid. Signatures are wrapped with their origin.
 */
import type { AssistantContentPart, ProviderSignature, ProtocolId, RedactedThinkingPart, ThinkingPart } from '@rosetta/canonical';
import { isRecord, isString, unwrapSignature, wrapSignature } from '@rosetta/protocols/common';

export interface ReasoningDetail {
  type: 'reasoning.text' | 'reasoning.encrypted';
  text?: string;
  signature?: string;
  data?: string;
  format: string;
  index: number;
}

const FORMAT = 'rosetta-v1';

export function toReasoningDetail(part: ThinkingPart | RedactedThinkingPart, index: number): ReasoningDetail {
  if (part.type === 'redacted_thinking') {
    return { type: 'reasoning.encrypted', data: wrapSignature({ protocol: part.protocol, value: part.data }, 'openai'), format: FORMAT, index };
  }
  const detail: ReasoningDetail = { type: 'reasoning.text', text: part.text, format: FORMAT, index };
  if (part.signature) detail.signature = wrapSignature(part.signature, 'openai');
  return detail;
}

export function signedThinkingDetail(text: string, signature: ProviderSignature | undefined, index: number): ReasoningDetail {
  return toReasoningDetail({ type: 'thinking', text, signature }, index);
}

/** Assistant-history `reasoning_details` → thinking parts (unsigned entries keep only their text). */
export function fromReasoningDetails(value: unknown): AssistantContentPart[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts: AssistantContentPart[] = [];
  for (const entry of value) {
    if (!isRecord(entry)) continue;
    if (entry['type'] === 'reasoning.encrypted' && isString(entry['data'])) {
      const unwrapped = unwrapSignature(entry['data'], 'openai');
      parts.push({ type: 'redacted_thinking', data: unwrapped.value, protocol: unwrapped.protocol as ProtocolId });
    } else if (entry['type'] === 'reasoning.text' && isString(entry['text'])) {
      const signature = isString(entry['signature']) && entry['signature'] ? unwrapSignature(entry['signature'], 'openai') : undefined;
      parts.push(signature ? { type: 'thinking', text: entry['text'], signature } : { type: 'thinking', text: entry['text'] });
    }
  }
  return parts;
}
