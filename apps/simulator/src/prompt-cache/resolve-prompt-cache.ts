import type { NeutralRequest } from '../reply-plan';
import { applyAutomaticCache } from './automatic-cache';
import { applyBreakpointCache, minimumCacheableTokens } from './breakpoint-cache';
import type { PromptCacheStore } from './prompt-cache-store';
import type { PromptCacheOutcome, PromptCacheQuery } from './prompt-cache-types';

/**
 * Runs a request against the simulated provider cache its protocol describes. Entries are
 * partitioned by credential scope and model (and OpenAI's `prompt_cache_key`), as the providers
 * keep them: another key or model never reads them.
 */
export function resolvePromptCache(store: PromptCacheStore, scope: string, request: NeutralRequest, query: PromptCacheQuery): PromptCacheOutcome {
  if (query.kind === 'breakpoints') {
    const partition = ['breakpoints', scope, request.model].join('\u0000');
    return applyBreakpointCache({ store, partition, segments: query.segments, minTokens: minimumCacheableTokens(request.model) });
  }
  const partition = ['automatic', scope, request.model, query.key ?? ''].join('\u0000');
  const read = applyAutomaticCache({ store, partition, request, retention: query.retention });
  return { read, write: { fiveMinute: 0, oneHour: 0 } };
}
