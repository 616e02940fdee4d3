import type { PromptCacheMode, ResponseCacheSettings } from '@rosetta/cache';
import type { GuardrailCheck } from '@rosetta/guardrails';

/** How often a dollar budget starts again: each UTC day, each UTC month, or never. */
export type BudgetPeriod = 'day' | 'month' | 'total';

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'month', 'total'];

/** A dollar budget: at most `usd` spent per `period`. */
export interface Budget {
  usd: number;
  period: BudgetPeriod;
}

/** A key as the rest of the gateway sees it: plain data, never the ORM entity, never the secret. */
export interface ApiKeyRecord {
  id: string;
  lookupId: string;
  name: string;
  plan: string;
  rpm: number | null;
  tpm: number | null;
  /** Default cost/quality knob for rosetta/auto (null: the router's calibrated default). */
  routeKnob: number | null;
  /** The team the key's spend is also charged to. */
  teamId: string | null;
  budget: Budget | null;
  /** What each end user of the key may spend per period (decision 0033); its period is the key's budget_period. */
  endUserBudget: Budget | null;
  /** The models this key may call (public ids); null: every model. */
  models: string[] | null;
  /** The response cache for this key (null: as its plan). */
  cache: ResponseCacheSettings | null;
  /** Managed provider prompt caching for this key (null: as its plan). */
  promptCache: PromptCacheMode | null;
  /** The key's own guardrail checks (its team's and its plan's apply too); null: none. */
  guardrails?: GuardrailCheck[] | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The stored row for verification: the record plus the secret's hash. */
export interface StoredApiKey extends ApiKeyRecord {
  secretHash: string;
}

/** What PATCH /admin/keys/{id} may change: undefined leaves a field, null clears it. */
export interface KeyChange {
  name?: string;
  plan?: string;
  rpm?: number | null;
  tpm?: number | null;
  routeKnob?: number | null;
  expiresAt?: Date | null;
  teamId?: string | null;
  budget?: Budget | null;
  endUserBudget?: Budget | null;
  models?: string[] | null;
  cache?: ResponseCacheSettings | null;
  promptCache?: PromptCacheMode | null;
  guardrails?: GuardrailCheck[] | null;
}

export interface NewApiKey {
  id: string;
  lookupId: string;
  secretHash: string;
  name: string;
  plan: string;
  rpm: number | null;
  tpm: number | null;
  routeKnob: number | null;
  teamId?: string | null;
  budget?: Budget | null;
  endUserBudget?: Budget | null;
  models?: string[] | null;
  cache?: ResponseCacheSettings | null;
  promptCache?: PromptCacheMode | null;
  guardrails?: GuardrailCheck[] | null;
  expiresAt: Date | null;
}
