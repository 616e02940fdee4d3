/**
 * Claude on Bedrock (`invoke-with-response-stream`): AWS event-stream frames, each `chunk` event
 * carrying one Anthropic stream event as base64 JSON in `bytes` → the same `{event, data}` the
 * SSE parser yields, so Anthropic's stream decoder reads both. An exception frame (throttling,
 * a model stream error) becomes Anthropic's in-stream `error` event, which the decoder turns into
 * the client's error: never a clean finish.
 */
import { isRecord, parseAwsEventStream } from '@rosetta/protocols/common';
import type { AnthropicMessagesSSEEvent } from './parse-anthropic-messages-sse';

export async function* parseAnthropicBedrockStream(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<AnthropicMessagesSSEEvent> {
  for await (const message of parseAwsEventStream(source)) {
    if (message.messageType !== 'event') {
      yield { event: 'error', data: { type: 'error', error: exceptionError(message.exceptionType ?? message.errorCode, message.payload) } };
      return;
    }
    if (message.eventType !== 'chunk' || !isRecord(message.payload) || typeof message.payload['bytes'] !== 'string') continue;
    const data = decodeChunk(message.payload['bytes']);
    if (data === undefined) continue;
    yield isRecord(data) && typeof data['type'] === 'string' ? { event: data['type'], data } : { data };
  }
}

function decodeChunk(bytes: string): unknown {
  try {
    return JSON.parse(Buffer.from(bytes, 'base64').toString('utf8')) as unknown;
  } catch {
    // A chunk that is not JSON carries nothing the decoder could use; a stream cut short shows as one.
    return undefined;
  }
}

/** Throttling and unavailability read as Anthropic's overload (a 503); the rest as an API error. */
function exceptionError(type: string | undefined, payload: unknown): Record<string, string> {
  const said = isRecord(payload) ? (payload['message'] ?? payload['Message']) : undefined;
  const message = `${type ?? 'exception'}: ${typeof said === 'string' ? said : 'the stream was interrupted'}`;
  const overloaded = type !== undefined && /throttling|serviceunavailable/i.test(type);
  return { type: overloaded ? 'overloaded_error' : 'api_error', message };
}
