import type { ThinkingConfig, TranslationWarning } from '@rosetta/canonical';

/**
 * Claude's rules for thinking, the same wherever Claude is served (Anthropic's API, Bedrock,
 * Vertex): a budget of at least 1024 tokens, below the output cap; `top_p` of at least 0.95
 * while thinking. The encoders of each protocol and the transport's output-cap clamp read them here.
 */
export const CLAUDE_MIN_THINKING_BUDGET = 1024;
export const CLAUDE_MIN_TOP_P_WITH_THINKING = 0.95;

/** An effort (OpenAI's and Gemini's way to ask) as a token budget. */
const EFFORT_BUDGETS: Readonly<Record<string, number>> = { none: 1024, minimal: 1024, low: 1024, medium: 4096, high: 16384, xhigh: 16384, max: 16384 };
const DEFAULT_EFFORT_BUDGET = 4096;

/** The budget asked for (given, or from an effort), raised to Claude's minimum with a warning naming `minimumOf`. */
export function claudeThinkingBudget(thinking: ThinkingConfig, minimumOf: string, warnings: TranslationWarning[]): number {
  const requested = thinking.budgetTokens ?? EFFORT_BUDGETS[thinking.effort ?? ''] ?? DEFAULT_EFFORT_BUDGET;
  if (requested < CLAUDE_MIN_THINKING_BUDGET) {
    warnings.push({ feature: 'thinking', message: `Thinking budget raised from ${requested} to ${minimumOf}'s minimum of ${CLAUDE_MIN_THINKING_BUDGET}.` });
  }
  return Math.max(CLAUDE_MIN_THINKING_BUDGET, requested);
}
