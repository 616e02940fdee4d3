import { createHmac, timingSafeEqual } from 'node:crypto';

/** The fixed HMAC key; public on purpose, so tests (and gateways under test) can sign too. */
export const SIGNATURE_SECRET = 'rosetta-simulator';

export type SignedProtocol = 'anthropic' | 'gemini' | 'openai-responses' | 'bedrock-converse';

/**
 * A verifiable reasoning signature: base64(HMAC-SHA256(secret, `${protocol}:${text}`)). Anthropic
 * signs the thinking text; Gemini signs the name of the functionCall (or the text) it is attached to.
 */
export function thinkingSignature(protocol: SignedProtocol, text: string): string {
  return createHmac('sha256', SIGNATURE_SECRET).update(`${protocol}:${text}`).digest('base64');
}

/** Constant-time comparison against the signature `text` should have. */
export function verifyThinkingSignature(protocol: SignedProtocol, text: string, signature: string): boolean {
  const expected = Buffer.from(thinkingSignature(protocol, text));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
