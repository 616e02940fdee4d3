import { Injectable } from '@nestjs/common';
import {
  AnthropicMessagesStreamDecoder,
  convertAnthropicMessagesResponse,
  convertToAnthropicMessagesRequest,
  parseAnthropicMessagesErrorBody,
  parseAnthropicMessagesSSE,
} from '@rosetta/protocols/anthropic-messages';
import { HttpTransport } from '../http-transport';
import type { AdapterCompletion, AdapterStream, ProviderAdapter, UpstreamCall } from '../provider-adapter';
import { clampOutputTokens, decodeChunks, postToUpstream, readJson, requireHonoured } from '../upstream-call';

const DEFAULT_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; when the client gave none, ask for this much (or the endpoint's limit). */
const DEFAULT_MAX_TOKENS = 8192;

/** Anthropic Messages upstreams. */
@Injectable()
export class AnthropicMessagesAdapter implements ProviderAdapter {
  readonly protocol = 'anthropic' as const;

  constructor(private readonly transport: HttpTransport) {}

  async complete(call: UpstreamCall): Promise<AdapterCompletion> {
    const { body, warnings } = this.body(call, false);
    const upstream = await this.post(call, body);
    return { response: convertAnthropicMessagesResponse({ body: await readJson(upstream) }), warnings };
  }

  async stream(call: UpstreamCall): Promise<AdapterStream> {
    const { body, warnings } = this.body(call, true);
    const upstream = await this.post(call, body);
    const events = decodeChunks(parseAnthropicMessagesSSE(upstream.body), new AnthropicMessagesStreamDecoder(), [call.target.apiKey]);
    return { events, warnings };
  }

  private body(call: UpstreamCall, stream: boolean) {
    const { value, warnings } = clampOutputTokens('anthropic', requireHonoured(call.request, convertToAnthropicMessagesRequest({
      request: { ...call.request, stream },
      upstreamModel: call.target.upstreamModel,
      defaultMaxTokens: Math.min(call.target.maxCompletionTokens ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS),
    })), call.target.outputTokenCap);
    return { body: value, warnings };
  }

  private post(call: UpstreamCall, body: unknown) {
    // ARCHITECTURE §4.12: the client's anthropic-version and anthropic-beta reach Anthropic upstreams.
    const fromClient = call.request.passthrough?.protocol === 'anthropic' ? call.request.passthrough.headers ?? {} : {};
    const headers: Record<string, string> = {
      'x-api-key': call.target.apiKey,
      'anthropic-version': fromClient['anthropic-version'] ?? DEFAULT_VERSION,
      'x-request-id': call.requestId,
    };
    if (fromClient['anthropic-beta']) headers['anthropic-beta'] = fromClient['anthropic-beta'];
    return postToUpstream(this.transport, call, `${call.target.baseUrl}/v1/messages`, headers, body, parseAnthropicMessagesErrorBody);
  }
}
