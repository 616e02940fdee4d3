import { Injectable } from '@nestjs/common';
import {
  convertOpenAIChatResponse,
  convertToOpenAIChatRequest,
  OpenAIChatStreamDecoder,
  parseOpenAIChatErrorBody,
  parseOpenAIChatSSE,
} from '@rosetta/protocols/openai-chat';
import { HttpTransport } from '../http-transport';
import type { AdapterCompletion, AdapterStream, ProviderAdapter, UpstreamCall } from '../provider-adapter';
import { clampOutputTokens, decodeChunks, postToUpstream, readJson, requireHonoured } from '../upstream-call';

/** Any OpenAI-compatible chat-completions server: OpenAI, vLLM, Ollama, Groq, Together… */
@Injectable()
export class OpenAIChatAdapter implements ProviderAdapter {
  readonly protocol = 'openai' as const;

  constructor(private readonly transport: HttpTransport) {}

  async complete(call: UpstreamCall): Promise<AdapterCompletion> {
    const { value: body, warnings } = clampOutputTokens('openai', requireHonoured(call.request, convertToOpenAIChatRequest({
      request: { ...call.request, stream: false },
      upstreamModel: call.target.upstreamModel,
      reasoning: call.target.reasoning,
    })), call.target.outputTokenCap);
    const upstream = await this.post(call, body);
    return { response: convertOpenAIChatResponse({ body: await readJson(upstream) }), warnings };
  }

  async stream(call: UpstreamCall): Promise<AdapterStream> {
    const { value: body, warnings } = clampOutputTokens('openai', requireHonoured(call.request, convertToOpenAIChatRequest({
      request: { ...call.request, stream: true },
      upstreamModel: call.target.upstreamModel,
      reasoning: call.target.reasoning,
    })), call.target.outputTokenCap);
    const response = await this.post(call, body);
    return { events: decodeChunks(parseOpenAIChatSSE(response.body), new OpenAIChatStreamDecoder(), [call.target.apiKey]), warnings };
  }

  private post(call: UpstreamCall, body: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${call.target.apiKey}`, 'x-request-id': call.requestId };
    return postToUpstream(this.transport, call, `${call.target.baseUrl}/chat/completions`, headers, body, parseOpenAIChatErrorBody);
  }
}
