/**
 * Token usage in one convention: input includes cached tokens, output includes reasoning tokens.
 * Converters translate from each provider's convention (Anthropic input excludes cache reads and
 * writes; Gemini's candidates exclude thoughts).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from a prompt cache (a subset of inputTokens). */
  cachedInputTokens?: number;
  /** Input tokens written to a prompt cache (a subset of inputTokens). */
  cacheCreationInputTokens?: number;
  /** Reasoning/thinking tokens (a subset of outputTokens). */
  reasoningTokens?: number;
  /** What the gateway charges for these tokens (USD, registry pricing); set only on the way out. */
  costUsd?: number;
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

export function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  const sum = (x?: number, y?: number): number | undefined =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  return stripUndefined({
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: sum(a.cachedInputTokens, b.cachedInputTokens),
    cacheCreationInputTokens: sum(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
  });
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
