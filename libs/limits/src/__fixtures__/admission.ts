import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { ApiKeyRecord, TeamCacheService } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import type { AppLogger } from '@rosetta/platform';
import type { EndUserSpendRepository, UsageRepository } from '@rosetta/usage';
import { JointAdmissionService } from '../admission/joint-admission.service';
import { BudgetService } from '../budget/budget.service';
import type { PlanCacheService } from '../plan-cache.service';
import type { PlanRecord } from '../plan.record';
import { RateLimitService, type RateLimitOptions } from '../limiter/rate-limit.service';

/** A logger that says nothing. */
export const quietLogger = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as AppLogger;

/** A key on plan `metered` with no limits, teams or budget of its own unless `fields` give them. */
export function keyRecord(fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: randomUUID(),
    lookupId: 'lookup',
    name: 'metered-key',
    plan: 'metered',
    rpm: null,
    tpm: null,
    routeKnob: null,
    cache: null,
    promptCache: null,
    teamId: null,
    budget: null,
    endUserBudget: null,
    models: null,
    createdAt: new Date(),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...fields,
  };
}

export interface AdmissionReplica {
  joint: JointAdmissionService;
  limits: RateLimitService;
  budgets: BudgetService;
}

/**
 * One gateway process's admission over its own Redis connection: every key is on `plan`, no key
 * has a team, and the ledger says `spentUsd` so far.
 */
export function admissionReplica(
  redis: Redis | null,
  { plan, options, spentUsd = 0, endUserSpentUsd = {} }: { plan: Pick<PlanRecord, 'rpm' | 'tpm'>; options: RateLimitOptions; spentUsd?: number; endUserSpentUsd?: Record<string, number> },
): AdmissionReplica {
  const plans = { get: () => ({ name: 'metered', ...plan }) } as unknown as PlanCacheService;
  const limits = new RateLimitService(redis, plans, quietLogger, options);
  const teams = { get: () => undefined } as unknown as TeamCacheService;
  const usage = { spentSince: async () => spentUsd } as unknown as UsageRepository;
  const endUsers = { spentSince: async (_key: string, endUser: string) => endUserSpentUsd[endUser] ?? 0 } as unknown as EndUserSpendRepository;
  const budgets = new BudgetService(redis, teams, usage, quietLogger, undefined, endUsers);
  return { joint: new JointAdmissionService(limits, budgets, quietLogger), limits, budgets };
}

/** The GatewayError `promise` rejects with (anything else fails the test). */
export async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}
