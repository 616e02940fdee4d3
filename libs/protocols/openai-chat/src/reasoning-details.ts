/**
 * Chat Completions has no place for signed reasoning. OpenRouter's `reasoning_details` is the
 * de-facto extension clients already round-trip, so thinking with a signature (and redacted
 * thinking) travels there: a dialect-A client that sends the assistant turn back unchanged keeps
 * a Claude or Gemini tool loop with thinking valid. Signatures are wrapped with their origin.
 *
 * A tool call's foreign signature (Gemini signs its function calls) travels there too, as an
 * encrypted entry marked as a call signature and naming the call by `id`; it goes back onto that
 * call, not into thinking.
 */
import type {
  AssistantContentPart,
  ProviderSignature,
  UpstreamProtocolId,
  RedactedThinkingPart,
  ThinkingPart,
  ToolCallPart,
} from '@rosetta/canonical';
import { isRecord, isString, unwrapCallSignature, unwrapSignature, wrapCallSignature, wrapSignature } from '@rosetta/protocols/common';

export interface ReasoningDetail {
  type: 'reasoning.text' | 'reasoning.encrypted';
  text?: string;
  signature?: string;
  data?: string;
  /** The tool call a call signature belongs to. */
  id?: string;
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

/** The entry carrying a tool call's signature, or undefined when the call needs none. */
export function callSignatureDetail(call: Pick<ToolCallPart, 'id' | 'signature'>, index: number): ReasoningDetail | undefined {
  const { id, signature } = call;
  if (!signature || signature.protocol === 'openai') return undefined;
  return { type: 'reasoning.encrypted', data: wrapCallSignature(signature), id, format: FORMAT, index };
}

/** Assistant-history `reasoning_details` → tool call id → the signature that belongs on that call. */
export function callSignaturesFromReasoningDetails(value: unknown): Map<string, ProviderSignature> {
  const signatures = new Map<string, ProviderSignature>();
  if (!Array.isArray(value)) return signatures;
  for (const entry of value) {
    const signature = carriedCallSignature(entry);
    if (signature && isRecord(entry) && isString(entry['id'])) signatures.set(entry['id'], signature);
  }
  return signatures;
}

function carriedCallSignature(entry: unknown): ProviderSignature | undefined {
  if (!isRecord(entry) || entry['type'] !== 'reasoning.encrypted' || !isString(entry['data'])) return undefined;
  return unwrapCallSignature(entry['data']);
}

/**
 * Assistant-history `reasoning_details` → thinking parts (unsigned entries keep only their text).
 * Call signatures are not thinking: see callSignaturesFromReasoningDetails.
 */
export function fromReasoningDetails(value: unknown): AssistantContentPart[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts: AssistantContentPart[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || carriedCallSignature(entry)) continue;
    if (entry['type'] === 'reasoning.encrypted' && isString(entry['data'])) {
      const unwrapped = unwrapSignature(entry['data'], 'openai');
      parts.push({ type: 'redacted_thinking', data: unwrapped.value, protocol: unwrapped.protocol as UpstreamProtocolId });
    } else if (entry['type'] === 'reasoning.text' && isString(entry['text'])) {
      const signature = isString(entry['signature']) && entry['signature'] ? unwrapSignature(entry['signature'], 'openai') : undefined;
      parts.push(signature ? { type: 'thinking', text: entry['text'], signature } : { type: 'thinking', text: entry['text'] });
    }
  }
  return parts;
}
