import { GatewayError } from '@rosetta/canonical';
import type { UpstreamProtocol } from '@rosetta/protocols/common';
import { bodyChunks } from './body-chunks';
import { embedOverProtocol } from './embed-call';
import type { HttpTransport } from './http-transport';
import type { AdapterCompletion, AdapterEmbedding, AdapterStream, ProviderAdapter, UpstreamCall, UpstreamEmbeddingCall } from './provider-adapter';
import { clampOutputTokens, decodeChunks, postToUpstream, readJson, requireHonoured, scanSse } from './upstream-call';
import { REASONING_REFUSED } from './upstream-error';
import { bedrockErrorParser } from './credentials/bedrock-error';
import { invalidatePlatformCredential, platformRequest } from './credentials/platform-request';

/** Endpoints remembered as not reasoning, oldest forgotten first (a forgotten one costs one more refusal). */
const MAX_LEARNED = 1_000;

/**
 * The one adapter implementation: an upstream protocol's descriptor (its codec, URL, headers,
 * stream framing and error format) over the shared transport. Every upstream protocol gets one.
 */
export class ProtocolAdapter implements ProviderAdapter {
  readonly protocol: UpstreamProtocol['id'];

  constructor(
    readonly descriptor: UpstreamProtocol,
    private readonly transport: HttpTransport,
  ) {
    this.protocol = descriptor.id;
    this.bedrockParseError = bedrockErrorParser(descriptor.parseError);
  }

  /**
   * Endpoints (`provider base-url model`) registered as reasoning whose upstream refused the
   * reasoning parameters: this process sends them none from then on.
   */
  private readonly learnedNotReasoning = new Set<string>();

  /** Bedrock's errors (type in `x-amzn-errortype`) over this protocol's own error body. */
  private readonly bedrockParseError: ReturnType<typeof bedrockErrorParser>;

  complete(call: UpstreamCall): Promise<AdapterCompletion> {
    return this.withReasoningLearned(call, async (leg) => {
      const { value: body, warnings } = this.body(leg, false);
      const upstream = await this.post(leg, body, false);
      return { response: this.descriptor.decode(await readJson(upstream)), warnings };
    });
  }

  stream(call: UpstreamCall): Promise<AdapterStream> {
    return this.withReasoningLearned(call, (leg) => this.openStream(leg));
  }

  /**
   * A registry that says an endpoint reasons when its model does not (an operator registering
   * gpt-4.1 as reasoning) is a capability mismatch, not an outage: the upstream's refusal is
   * learned, and the call is made once more without reasoning parameters, so neither the caller
   * nor the endpoint's health and circuit see the refusal.
   */
  private async withReasoningLearned<T>(call: UpstreamCall, send: (call: UpstreamCall) => Promise<T>): Promise<T> {
    const key = `${call.target.provider} ${call.target.baseUrl} ${call.target.upstreamModel}`;
    const withoutReasoning = (): UpstreamCall => ({ ...call, target: { ...call.target, reasoning: false } });
    if (call.target.reasoning !== true) return send(call);
    if (this.learnedNotReasoning.has(key)) return send(withoutReasoning());
    try {
      return await send(call);
    } catch (error) {
      if (!(error instanceof GatewayError) || error.code !== REASONING_REFUSED) throw error;
      // Bounded: a caller's own base_url (provider_configs) makes a key per host it names.
      if (this.learnedNotReasoning.size >= MAX_LEARNED) this.learnedNotReasoning.delete(this.learnedNotReasoning.values().next().value!);
      this.learnedNotReasoning.add(key);
      return send(withoutReasoning());
    }
  }

  private async openStream(call: UpstreamCall): Promise<AdapterStream> {
    const { value: body, warnings } = this.body(call, true);
    const upstream = await this.post(call, body, true);
    const secrets = [call.target.apiKey];
    const chunks = bodyChunks(upstream.body);
    const platformStream = call.target.platform && this.descriptor.platformStreams?.[call.target.platform.kind];
    if (platformStream) return { events: decodeChunks(platformStream(chunks), this.descriptor.streamDecoder(), secrets), warnings };
    const scanner = this.passThrough(call);
    if (scanner) return { events: scanSse(chunks, scanner, secrets), warnings, passThrough: true };
    return { events: decodeChunks(this.descriptor.parseStream(chunks), this.descriptor.streamDecoder(), secrets), warnings };
  }

  /** A scanner when the client takes this protocol's frames and the request went through untouched. */
  private passThrough(call: UpstreamCall) {
    if (!call.passThrough || call.request.passthrough?.protocol !== this.protocol) return undefined;
    return this.descriptor.streamScanner?.();
  }

  embed(call: UpstreamEmbeddingCall): Promise<AdapterEmbedding> {
    const part = this.descriptor.embeddings;
    // The registry never routes an embedding model to such a protocol; this is the last guard.
    if (!part) throw new GatewayError('api_error', `The '${this.protocol}' protocol has no embeddings`, { local: true });
    return embedOverProtocol(this.transport, part, this.descriptor.parseError, call);
  }

  private body(call: UpstreamCall, stream: boolean) {
    const { target } = call;
    const converted = this.descriptor.encode({ ...call.request, stream }, { upstreamModel: target.upstreamModel, reasoning: target.reasoning, maxCompletionTokens: target.maxCompletionTokens });
    return clampOutputTokens(this.descriptor.outputCapFields, requireHonoured(call.request, converted), target.outputTokenCap, this.descriptor.thinkingBudgetFields);
  }

  private post(call: UpstreamCall, body: unknown, stream: boolean) {
    const { target } = call;
    const headers = { ...this.descriptor.headers(target.apiKey, call.request), 'x-request-id': call.requestId };
    const url = this.descriptor.url(target.baseUrl, target.upstreamModel, stream);
    if (target.platform) return this.postThroughPlatform(call, url, headers, body);
    return postToUpstream(this.transport, call, url, headers, body, this.descriptor.parseError, this.descriptor.refusesReasoning);
  }

  /** The protocol's path under its base, laid out the platform's way (Azure's v1 or deployment paths), with its credentials. */
  private async postThroughPlatform(call: UpstreamCall, defaultUrl: string, defaultHeaders: Record<string, string>, body: unknown) {
    const { target } = call;
    const path = defaultUrl.slice(target.baseUrl.length);
    const platform = target.platform!;
    const sent = await platformRequest({ provider: target.provider, platform, baseUrl: target.baseUrl, upstreamModel: target.upstreamModel, path, apiKey: target.apiKey, headers: defaultHeaders, body });
    const parseError = platform.kind === 'bedrock' ? this.bedrockParseError : this.descriptor.parseError;
    return postToUpstream(this.transport, call, sent.url, sent.headers, sent.body, parseError, this.descriptor.refusesReasoning, () => invalidatePlatformCredential(platform, target.apiKey));
  }
}
