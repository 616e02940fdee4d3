import type { ProviderSignature, RedactedThinkingPart } from '@rosetta/canonical';
import { unwrapSignature, wrapSignature } from '@rosetta/protocols/common';

/**
 * A Responses reasoning item's identity — its id and its encrypted content — as one canonical
 * signature of protocol `openai-responses`. OpenAI refuses a changed copy, so both go back
 * exactly as they came; other protocols never see them (signatures are bound to their protocol).
 * Another provider's signature (or Anthropic's redacted thinking) that travels through a
 * Responses client rides in `encrypted_content`, wrapped with its origin.
 */
const REDACTED = 'redacted:';

export type ReasoningOrigin = { signature?: ProviderSignature } | { redacted: Omit<RedactedThinkingPart, 'type'> };

export function reasoningOrigin(id: string | undefined, encrypted: string | undefined): ReasoningOrigin {
  if (encrypted === undefined) return { signature: id === undefined ? undefined : { protocol: 'openai-responses', value: JSON.stringify({ id }) } };
  const foreign = unwrapSignature(encrypted, 'openai-responses');
  if (foreign.protocol !== 'openai-responses') {
    return foreign.value.startsWith(REDACTED) ? { redacted: { protocol: foreign.protocol, data: foreign.value.slice(REDACTED.length) } } : { signature: foreign };
  }
  return { signature: { protocol: 'openai-responses', value: JSON.stringify({ id, encrypted_content: encrypted }) } };
}

export interface ReasoningIdentity {
  id?: string;
  encryptedContent?: string;
}

/** What a reasoning item carries for this signature: ours unpacked, another's wrapped. */
export function reasoningIdentity(signature: ProviderSignature | undefined): ReasoningIdentity {
  if (!signature) return {};
  if (signature.protocol !== 'openai-responses') return { encryptedContent: wrapSignature(signature, 'openai-responses') };
  try {
    const parsed = JSON.parse(signature.value) as { id?: unknown; encrypted_content?: unknown };
    return {
      id: typeof parsed.id === 'string' ? parsed.id : undefined,
      encryptedContent: typeof parsed.encrypted_content === 'string' ? parsed.encrypted_content : undefined,
    };
  } catch {
    return {};
  }
}

/** Redacted thinking from another protocol, as a reasoning item's encrypted content. */
export function redactedSignature(part: Pick<RedactedThinkingPart, 'protocol' | 'data'>): string {
  return wrapSignature({ protocol: part.protocol, value: `${REDACTED}${part.data}` }, 'openai-responses');
}
