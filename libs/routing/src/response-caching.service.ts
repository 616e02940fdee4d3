import { Inject, Injectable } from '@nestjs/common';
import {
  cacheDirectives, cacheScope, effectiveCache, isStorable, responseCacheKey, ResponseCacheService, SemanticIndexService, servedCopy, uncacheableReason,
  type CachedAnswer, type ResponseCacheSettings,
} from '@rosetta/cache';
import { StreamedAnswer, type CanonicalRequest, type CanonicalResponse, type Message, type StreamEvent } from '@rosetta/canonical';
import { estimateEmbeddingTokens, PlanCacheService } from '@rosetta/limits';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { ExecutorService } from './executor.service';
import { RoutingService } from './routing.service';
import type { CallContext, ServedMeta } from './outcome';
import { sessionId } from './session-affinity.service';

/** Below this many prompt tokens no provider caches a prefix (Anthropic's least minimum, OpenAI's too). */
export const MIN_CACHEABLE_PROMPT_TOKENS = 1024;

/** One request's dealings with the response cache: where its answer is kept, and what it may do. */
export interface CacheTicket {
  key: string;
  settings: ResponseCacheSettings;
  /** May be answered from the cache (no `no-cache` / `no-store`). */
  read: boolean;
  /** Its answer may be stored (no `no-store`). */
  write: boolean;
  /**
   * Semantic mode: the last user turn's text to match by embedding, within the scope and the
   * context (everything but that text, hashed); its vector once computed, for the store.
   */
  semantic?: { scope: string; context: string; text: string; embedding?: number[] };
}

/**
 * The response cache as the chat use case meets it (ARCHITECTURE §9): whether a request takes part
 * (its key's or plan's `cache`, its `Cache-Control`, n = 1), the lookup, and the store of a whole
 * answer, streamed or not. Off — the default — it is one map read per request.
 */
@Injectable()
export class ResponseCachingService {
  private warnedSemantic = false;

  constructor(
    private readonly cache: ResponseCacheService,
    private readonly plans: PlanCacheService,
    private readonly semanticIndex: SemanticIndexService,
    private readonly routing: RoutingService,
    private readonly executor: ExecutorService,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /**
   * The key's (or its plan's) caching, applied to a request as it arrives, resolved once: the
   * response cache's ticket for the request as asked, and the request to send on — with
   * `prompt_cache: auto` (ARCHITECTURE §9) marked for Claude's breakpoints when it is long enough
   * to cache, and given the session's `prompt_cache_key` for OpenAI unless it has one.
   */
  prepare(asked: CanonicalRequest, ctx: CallContext, promptTokens: number): { request: CanonicalRequest; ticket?: CacheTicket } {
    const key = ctx.key;
    if (!key) return { request: asked };
    const { cache, promptCache } = effectiveCache(key, this.plans.get(key.plan));
    const ticket = cache ? this.ticket(asked, cache, key, ctx) : undefined;
    if (promptCache !== 'auto') return { request: asked, ticket };
    const request = { ...asked, autoPromptCache: promptTokens >= MIN_CACHEABLE_PROMPT_TOKENS, promptCacheKey: asked.promptCacheKey ?? sessionId(asked, key.id) };
    return { request, ticket };
  }

  /** The request's ticket, or undefined when it cannot take part (`bypass`: no-store, n > 1). */
  private ticket(request: CanonicalRequest, settings: ResponseCacheSettings, key: NonNullable<CallContext['key']>, ctx: CallContext): CacheTicket | undefined {
    const directives = cacheDirectives(ctx.cacheControl);
    const writable = directives.write && !uncacheableReason(request);
    // Not read (no-cache, or not writable either): a bypass, whatever happens next.
    if (!directives.read || !writable) ctx.setHeaders?.({ 'x-rosetta-cache': 'bypass' });
    if (!writable) return undefined;
    const scope = cacheScope(key)!;
    const ticket: CacheTicket = { key: responseCacheKey(request, scope), settings, ...directives };
    const text = settings.mode === 'semantic' && this.semanticIndex.supported ? lastUserText(request.messages) : undefined;
    if (text) ticket.semantic = { scope, context: responseCacheKey(withoutLastTurn(request), scope), text };
    return ticket;
  }

  /** The stored answer for a ticket that may read; a miss is noted on the ledger and the answer's headers. */
  async lookup(ticket: CacheTicket, ctx: CallContext): Promise<CachedAnswer | undefined> {
    if (!ticket.read) return undefined;
    const found = (await this.cache.read(ticket.key)) ?? (await this.nearest(ticket, ctx));
    if (!found) {
      ctx.setHeaders?.({ 'x-rosetta-cache': 'miss' });
      ctx.usage?.cacheMiss();
    }
    return found;
  }

  /** The stored answer as this request's response, with the headers of a hit. */
  served(hit: CachedAnswer, ctx: CallContext, now = Date.now()): CanonicalResponse {
    ctx.setHeaders?.({ 'x-rosetta-cache': 'hit', age: String(Math.max(0, Math.floor((now - hit.storedAt) / 1000))) });
    const response = servedCopy(hit, now);
    if (response.usage) response.usage = { ...response.usage, costUsd: 0 };
    return response;
  }

  /** Keeps a whole answer (not one cut short, refused or failed) for the ticket's TTL. */
  store(ticket: CacheTicket, response: CanonicalResponse, meta: ServedMeta, costUsd: number): void {
    if (!isStorable(response)) return;
    const usage = response.usage && { ...response.usage };
    if (usage) delete usage.costUsd;
    const answer: CachedAnswer = { response: { ...response, ...(usage ? { usage } : {}) }, model: meta.model, provider: meta.provider, protocol: meta.protocol, costUsd, storedAt: Date.now() };
    // Sent before the answer is written (not awaited): a client that asks again the moment it has
    // its answer, on any replica, finds it stored.
    void this.cache.write(ticket.key, answer, ticket.settings.ttlS);
    const semantic = ticket.semantic;
    if (semantic?.embedding) {
      this.semanticIndex.add(semantic.scope, semantic.context, semantic.embedding, ticket.key, ticket.settings.ttlS).catch((error: unknown) => this.semanticFailed(error));
    }
  }

  /**
   * Semantic mode after an exact miss: the stored answer whose last user turn is nearest to this
   * one's (cosine ≥ the setting's similarity) in the same scope and context. The turn is embedded
   * once, by RESPONSE_CACHE_EMBEDDING_MODEL, and the vector kept for the store. Any failure (the
   * embedding upstream, the database) is a miss: the cache never fails a request.
   */
  private async nearest(ticket: CacheTicket, ctx: CallContext): Promise<CachedAnswer | undefined> {
    const semantic = ticket.semantic;
    if (!semantic) return undefined;
    try {
      semantic.embedding = await this.embed(semantic.text, ctx);
      const match = await this.semanticIndex.nearest(semantic.scope, semantic.context, semantic.embedding);
      if (!match || match.similarity < ticket.settings.similarity) return undefined;
      return await this.cache.read(match.cacheKey);
    } catch (error) {
      this.semanticFailed(error);
      return undefined;
    }
  }

  /** The gateway's own embedding call: the executor's retries and fallbacks, no ledger row of its own. */
  private async embed(text: string, ctx: CallContext): Promise<number[]> {
    const request = { model: this.config.responseCache.embeddingModel, inputs: [{ type: 'text' as const, text }], routing: {} };
    const plan = this.routing.planEmbedding(request, { largestInputTokens: estimateEmbeddingTokens(request.inputs).largest });
    const outcome = await this.executor.embed(plan, request, { requestId: ctx.requestId, signal: ctx.signal });
    const vector = outcome.response.embeddings[0];
    if (!vector) throw new Error(`the embedding model ${request.model} returned no vector`);
    return vector;
  }

  private semanticFailed(error: unknown): void {
    if (this.warnedSemantic) return;
    this.warnedSemantic = true;
    this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'semantic response cache unavailable: answering without it');
  }

  /** Passes a stream through and stores its answer once it has finished whole. */
  async *storeWhenDone(events: AsyncIterable<StreamEvent>, ticket: CacheTicket, meta: ServedMeta, cost: (response: CanonicalResponse) => number): AsyncGenerator<StreamEvent> {
    const answer = new StreamedAnswer();
    for await (const event of events) {
      answer.add(event);
      yield event;
    }
    const response = answer.response();
    if (response) this.store(ticket, response, meta, cost(response));
  }
}

/** The last turn's text when it is the user's own words (tool results and media are matched exactly). */
function lastUserText(messages: readonly Message[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user' || last.content.some((part) => part.type !== 'text')) return undefined;
  const text = last.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n').trim();
  return text === '' ? undefined : text;
}

/** The request without its last turn's words: what must match exactly for a semantic hit. */
function withoutLastTurn(request: CanonicalRequest): CanonicalRequest {
  return { ...request, messages: [...request.messages.slice(0, -1), { role: 'user', content: [] }] };
}
