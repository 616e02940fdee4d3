import type Redis from 'ioredis';
import type { ApiKeyRecord } from '@rosetta/auth';
import { admissionReplica, keyRecord, refusal } from '../__fixtures__/admission';
import { admissionTag } from '../admission-slot';
import { connect, removeKeys, uniquePrefix } from '../limiter/__fixtures__/redis';
import { BUDGET_KEY_PREFIX } from './redis-budget-store';

const REQUEST = { prompt: 100, maxOutput: 100 };

/** A key with a $1 budget of its own and $1 per end user, in total. */
function budgetedKey(made: ApiKeyRecord[]): ApiKeyRecord {
  const key = keyRecord({ budget: { usd: 1, period: 'total' }, endUserBudget: { usd: 1, period: 'total' } });
  made.push(key);
  return key;
}

/**
 * BudgetService.charge: a cost with no hold (a guardrail model check on a request stopped before
 * admission) is charged to every budget of the request, once, and seen by the next admission.
 */
describe.each([true, false])('charging a budget without a hold (Redis: %s)', (withRedis) => {
  let redis: Redis | null = null;
  const prefix = uniquePrefix();
  /** The keys made here: their counters (under their own admission tags) are removed after. */
  const made: ApiKeyRecord[] = [];

  beforeAll(() => {
    if (withRedis) redis = connect();
  });

  afterAll(async () => {
    if (!redis) return;
    await removeKeys(redis, prefix);
    for (const key of made) await removeKeys(redis, `${BUDGET_KEY_PREFIX}${admissionTag(key)}`);
    redis.disconnect();
  });

  const replica = (spentUsd = 0, endUserSpentUsd: Record<string, number> = {}) =>
    admissionReplica(redis, { plan: { rpm: null, tpm: null }, options: { keyPrefix: prefix }, spentUsd, endUserSpentUsd });
  const spent = async (budgets: ReturnType<typeof replica>['budgets'], key: ApiKeyRecord, endUser?: string) =>
    Promise.all(budgets.scopesFor(key, endUser).map(async (scope) => [scope.kind, (await budgets.status(scope)).spentUsd, (await budgets.status(scope)).heldUsd]));

  it('adds the cost to the key and end-user counters already loaded, holding nothing, and the next admission sees it', async () => {
    const key = budgetedKey(made);
    const { budgets, joint } = replica();
    const charged: Array<[string, number, number]> = [];
    budgets.observe({ charged: (scope, _window, before, after) => charged.push([scope.kind, before, after]), refused: () => undefined });
    (await joint.admit(key, REQUEST, () => 0.1, undefined, 'alice')).budget!.settle(0.1);
    await budgets.charge(key, 0.75, 'alice');
    expect(await spent(budgets, key, 'alice')).toEqual([['key', 0.85, 0], ['end_user', 0.85, 0]]);
    // Told like a settle (the alerts' thresholds), once per budget.
    expect(charged).toEqual([['key', 0, 0.1], ['end_user', 0, 0.1], ['key', 0.1, 0.85], ['end_user', 0.1, 0.85]]);
    // $0.85 spent of $1: a request that may cost $0.2 is refused now.
    expect((await refusal(joint.admit(key, REQUEST, () => 0.2, undefined, 'alice'))).param).toBe('key.budget');
  });

  it('seeds a counter not loaded this period from the ledger first, then adds the cost', async () => {
    const key = budgetedKey(made);
    const { budgets } = replica(0.25, { bob: 0.5 });
    await budgets.charge(key, 0.125, 'bob');
    expect(await spent(budgets, key, 'bob')).toEqual([['key', 0.375, 0], ['end_user', 0.625, 0]]);
  });

  it('charges only the key budget for a request without an end user, and nothing for a key without budgets', async () => {
    const key = budgetedKey(made);
    const { budgets } = replica();
    await budgets.charge(key, 0.5);
    expect(await spent(budgets, key)).toEqual([['key', 0.5, 0]]);
    const unbudgeted = keyRecord();
    made.push(unbudgeted);
    await budgets.charge(unbudgeted, 0.5, 'carol');
    if (redis) expect(await redis.keys(`${BUDGET_KEY_PREFIX}${admissionTag(unbudgeted)}*`)).toEqual([]);
  });
});
