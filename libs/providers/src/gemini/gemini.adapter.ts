import { Injectable } from '@nestjs/common';
import {
  convertGeminiResponse,
  convertToGeminiRequest,
  GeminiStreamDecoder,
  geminiPath,
  parseGeminiErrorBody,
  parseGeminiSSE,
} from '@rosetta/protocols/gemini';
import { HttpTransport } from '../http-transport';
import type { AdapterCompletion, AdapterStream, ProviderAdapter, UpstreamCall } from '../provider-adapter';
import { clampOutputTokens, decodeChunks, postToUpstream, readJson, requireHonoured } from '../upstream-call';

/** Gemini generateContent upstreams (the model goes in the path; streams use ?alt=sse). */
@Injectable()
export class GeminiAdapter implements ProviderAdapter {
  readonly protocol = 'gemini' as const;

  constructor(private readonly transport: HttpTransport) {}

  async complete(call: UpstreamCall): Promise<AdapterCompletion> {
    const { value: body, warnings } = clampOutputTokens('gemini', requireHonoured(call.request, convertToGeminiRequest({ request: { ...call.request, stream: false }, upstreamModel: call.target.upstreamModel })), call.target.outputTokenCap);
    const upstream = await this.post(call, body, false);
    return { response: convertGeminiResponse({ body: await readJson(upstream) }), warnings };
  }

  async stream(call: UpstreamCall): Promise<AdapterStream> {
    const { value: body, warnings } = clampOutputTokens('gemini', requireHonoured(call.request, convertToGeminiRequest({ request: { ...call.request, stream: true }, upstreamModel: call.target.upstreamModel })), call.target.outputTokenCap);
    const upstream = await this.post(call, body, true);
    return { events: decodeChunks(parseGeminiSSE(upstream.body), new GeminiStreamDecoder(), [call.target.apiKey]), warnings };
  }

  private post(call: UpstreamCall, body: unknown, stream: boolean) {
    const url = `${call.target.baseUrl}${geminiPath(call.target.upstreamModel, stream)}`;
    const headers = { 'x-goog-api-key': call.target.apiKey, 'x-request-id': call.requestId };
    return postToUpstream(this.transport, call, url, headers, body, parseGeminiErrorBody);
  }
}
