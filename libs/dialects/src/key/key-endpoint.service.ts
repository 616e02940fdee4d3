import { Injectable } from '@nestjs/common';
import { TeamCacheService, type ApiKeyRecord } from '@rosetta/auth';
import { BudgetService, RateLimitService, type BudgetScope, type BudgetStatus } from '@rosetta/limits';
import { usdString } from '@rosetta/usage';

/**
 * `GET /v1/key` (as OpenRouter's key endpoint): the caller's own key — plan, limits, budget with
 * what it spent this period and what remains, team, allowed models. Never the secret.
 */
@Injectable()
export class KeyEndpoint {
  constructor(
    private readonly limits: RateLimitService,
    private readonly budgets: BudgetService,
    private readonly teams: TeamCacheService,
  ) {}

  async describe(key: ApiKeyRecord): Promise<Record<string, unknown>> {
    const limits = this.limits.limitsFor(key);
    const scopes = this.budgets.scopesFor(key);
    const team = this.teams.get(key.teamId);
    const teamScope = scopes.find((s) => s.kind === 'team');
    return {
      id: key.id,
      name: key.name,
      plan: key.plan,
      limits: { rpm: limits.rpm, tpm: limits.tpm },
      budget: await this.describeBudget(scopes.find((s) => s.kind === 'key')),
      team: team ? { id: team.id, name: team.name, budget: await this.describeBudget(teamScope) } : null,
      models: key.models,
      expires_at: key.expiresAt?.toISOString() ?? null,
    };
  }

  private async describeBudget(scope: BudgetScope | undefined): Promise<Record<string, unknown> | null> {
    if (!scope) return null;
    return budgetBody(await this.budgets.status(scope));
  }
}

/** Budget figures as the API shows them: USD as decimal strings without exponent. */
export function budgetBody(status: BudgetStatus): Record<string, unknown> {
  return {
    usd: usdString(status.usd),
    period: status.period,
    spent_usd: usdString(status.spentUsd),
    held_usd: usdString(status.heldUsd),
    remaining_usd: usdString(status.remainingUsd),
    resets_at: status.resetsAt?.toISOString() ?? null,
  };
}
