/**
 * Gemini signs its function calls, and Gemini 3 refuses a replayed call without its signature, but
 * a dialect-B `tool_use` has no field for one. Such a signature rides in an empty thinking block
 * just before the call, marked as a call signature; when the client sends the turn back, it goes
 * back onto the call. A carrier is not thinking: it never counts as signed Anthropic thinking and
 * never reaches Anthropic.
 */
import type { ProviderSignature } from '@rosetta/canonical';
import type { ThinkingBlock } from '@anthropic-ai/sdk/resources/messages';
import { isRecord, isString, unwrapCallSignature, wrapCallSignature, type JsonObject } from '@rosetta/protocols/common';

/** The wrapped signature to carry beside a tool call; undefined when the call needs no carrier. */
export function carriedCallSignature(signature: ProviderSignature | undefined): string | undefined {
  return signature && signature.protocol !== 'anthropic' ? wrapCallSignature(signature) : undefined;
}

/** The carrier block to put just before a tool_use, if its signature needs one. */
export function callSignatureCarrier(signature: ProviderSignature | undefined): ThinkingBlock[] {
  const carried = carriedCallSignature(signature);
  return carried === undefined ? [] : [{ type: 'thinking', thinking: '', signature: carried }];
}

/** The call signature a block carries, or undefined when it is no carrier (real thinking included). */
export function callSignatureCarriedBy(block: unknown): ProviderSignature | undefined {
  if (!isRecord(block) || block['type'] !== 'thinking' || block['thinking'] !== '') return undefined;
  const signature = block['signature'];
  return isString(signature) ? unwrapCallSignature(signature) : undefined;
}

/**
 * Reasoning Anthropic did not sign — another provider's (wrapped by the gateway, carriers
 * included) or unsigned text from an OpenAI-compatible model — can only make Anthropic refuse the
 * request: a session that switched models sends it back. Such blocks are removed before forwarding.
 */
export function isForeignReasoning(block: unknown): boolean {
  if (!isRecord(block)) return false;
  if (block['type'] === 'thinking') return !isString(block['signature']) || block['signature'] === '' || block['signature'].startsWith(WRAPPED);
  if (block['type'] === 'redacted_thinking') return isString(block['data']) && block['data'].startsWith(WRAPPED);
  return false;
}

const WRAPPED = 'rosetta-sig.';

/** A dialect-B body without foreign reasoning, for Anthropic; the body itself when it holds none. */
export function withoutForeignReasoning(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body['messages'];
  if (!Array.isArray(messages) || !messages.some(holdsForeignReasoning)) return body;
  const stripped = messages.map((message: unknown) => {
    if (!holdsForeignReasoning(message)) return message;
    return { ...message, content: message['content'].filter((block) => !isForeignReasoning(block)) };
  });
  return { ...body, messages: stripped };
}

function holdsForeignReasoning(message: unknown): message is JsonObject & { content: unknown[] } {
  if (!isRecord(message) || message['role'] !== 'assistant') return false;
  const content = message['content'];
  return Array.isArray(content) && content.some(isForeignReasoning);
}
