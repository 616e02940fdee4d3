/**
 * Bedrock's errors, as Converse reports them: an error body `{"message": "…"}` (`Message` from
 * some front ends), its type in the `x-amzn-errortype` header, which the transport reads; or, once
 * a stream has started, an `exception` frame whose `:exception-type` header names it.
 */
import { GatewayError } from '@rosetta/canonical';
import { isRecord, stringField, type AwsEventStreamMessage } from '@rosetta/protocols/common';

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

/**
 * An exception (or unreadable frame) in a ConverseStream, as the gateway's error: throttling is a
 * rate limit (429), a validation failure the request's fault (400, not retried), unavailability a
 * 503, anything else (`modelStreamErrorException`, `internalServerException`, a broken frame) an
 * upstream failure. Retryable except for validation: before the first event reaches the client,
 * another attempt can still take over.
 */
export function bedrockConverseStreamError(message: AwsEventStreamMessage): GatewayError {
  const type = message.exceptionType ?? message.errorCode ?? 'exception';
  const payload = isRecord(message.payload) ? message.payload : {};
  const said = stringField(payload, 'message') ?? stringField(payload, 'Message') ?? (typeof message.payload === 'string' && message.payload !== '' ? message.payload : 'the stream was interrupted');
  const text = `Upstream service error: ${type}: ${said}`;
  switch (type.toLowerCase().replace(/exception$/, '')) {
    case 'throttling':
      return new GatewayError('rate_limit_error', text, { status: 429, retryable: true });
    case 'validation':
      return new GatewayError('invalid_request_error', text, { status: 400 });
    case 'serviceunavailable':
      return new GatewayError('upstream_error', text, { status: 503, retryable: true });
    default:
      return new GatewayError('upstream_error', text, { status: 502, retryable: true });
  }
}
