import type { PromptCacheMode, ResponseCacheSettings } from '@rosetta/cache';
import type { GuardrailCheck } from '@rosetta/guardrails';

/**
 * A plan tier: requests and tokens per minute (null: unlimited), and the caching its keys get
 * unless a key says otherwise (null: off).
 */
export interface PlanRecord {
  name: string;
  rpm: number | null;
  tpm: number | null;
  cache: ResponseCacheSettings | null;
  promptCache: PromptCacheMode | null;
  /** Guardrail checks every key of the plan is held to (with its own and its team's); null: none. */
  guardrails?: GuardrailCheck[] | null;
}

export const PLAN_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
