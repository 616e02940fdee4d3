/**
 * Bedrock's error bodies: `{"message": "…"}` (`Message` from some front ends); the error's type
 * travels in the `x-amzn-errortype` header, which the transport adds to the message.
 */
import { isRecord } from '@rosetta/protocols/common';

export function parseBedrockConverseErrorBody(text: string): { message: string } {
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body)) {
      const message = body['message'] ?? body['Message'];
      if (typeof message === 'string' && message !== '') return { message };
    }
  } catch {
    // not JSON: the text itself, shortened
  }
  const trimmed = text.trim();
  return { message: trimmed === '' ? 'no error message' : trimmed.slice(0, 500) };
}
