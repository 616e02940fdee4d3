import { Injectable } from '@nestjs/common';
import {
  cacheDirectives, cacheScope, effectiveCache, isStorable, responseCacheKey, ResponseCacheService, servedCopy, uncacheableReason,
  type CachedAnswer, type ResponseCacheSettings,
} from '@rosetta/cache';
import { StreamedAnswer, type CanonicalRequest, type CanonicalResponse, type StreamEvent } from '@rosetta/canonical';
import { PlanCacheService } from '@rosetta/limits';
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
}

/**
 * The response cache as the chat use case meets it (ARCHITECTURE §9): whether a request takes part
 * (its key's or plan's `cache`, its `Cache-Control`, n = 1), the lookup, and the store of a whole
 * answer, streamed or not. Off — the default — it is one map read per request.
 */
@Injectable()
export class ResponseCachingService {
  constructor(
    private readonly cache: ResponseCacheService,
    private readonly plans: PlanCacheService,
  ) {}

  /**
   * `prompt_cache: auto` (ARCHITECTURE §9): the request marked for Claude's breakpoints when it is
   * long enough to cache, and given the session's `prompt_cache_key` for OpenAI unless it has one.
   */
  withPromptCaching(request: CanonicalRequest, ctx: CallContext, promptTokens: number): CanonicalRequest {
    const key = ctx.key;
    if (!key || effectiveCache(key, this.plans.get(key.plan)).promptCache !== 'auto') return request;
    return { ...request, autoPromptCache: promptTokens >= MIN_CACHEABLE_PROMPT_TOKENS, promptCacheKey: request.promptCacheKey ?? sessionId(request, key.id) };
  }

  /** The request's ticket, or undefined when its key has no cache (or it cannot take part: `bypass`). */
  ticket(request: CanonicalRequest, ctx: CallContext): CacheTicket | undefined {
    const key = ctx.key;
    if (!key) return undefined;
    const { cache: settings } = effectiveCache(key, this.plans.get(key.plan));
    if (!settings) return undefined;
    const directives = cacheDirectives(ctx.cacheControl);
    if (!directives.read) ctx.setHeaders?.({ 'x-rosetta-cache': 'bypass' });
    if (!directives.write || uncacheableReason(request)) {
      ctx.setHeaders?.({ 'x-rosetta-cache': 'bypass' });
      return undefined;
    }
    return { key: responseCacheKey(request, cacheScope(key)!), settings, ...directives };
  }

  /** The stored answer for a ticket that may read; a miss is noted on the ledger and the answer's headers. */
  async lookup(ticket: CacheTicket, ctx: CallContext): Promise<CachedAnswer | undefined> {
    if (!ticket.read) return undefined;
    const found = await this.cache.read(ticket.key);
    if (!found) {
      ctx.setHeaders?.({ 'x-rosetta-cache': 'miss' });
      if (ctx.usage) ctx.usage.cache = 'miss';
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
    void this.cache.write(ticket.key, answer, ticket.settings.ttlS);
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
