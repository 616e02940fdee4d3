import type Redis from 'ioredis';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { GatewayError } from '@rosetta/canonical';
import type { BudgetService } from '../budget/budget.service';
import { connect, removeKeys, uniquePrefix } from '../limiter/__fixtures__/redis';
import { admissionReplica, keyRecord, refusal, type AdmissionReplica } from '../__fixtures__/admission';
import { RedisJointStore } from './redis-joint-store';

/** One replica's admission: its own services over the shared Redis. The ledger says `spent` USD so far. */
function replica(redis: Redis, prefix: string, spent = 0): AdmissionReplica {
  return admissionReplica(redis, { plan: { rpm: 1_000, tpm: 100_000 }, options: { keyPrefix: prefix }, spentUsd: spent });
}

function budgetKey(usd: number): ApiKeyRecord {
  return keyRecord({ budget: { usd, period: 'total' } });
}

/** Waits until the budget counter shows what a settle just sent (it is not awaited by design). */
async function settledTo(budgets: BudgetService, key: ApiKeyRecord, spentUsd: number): Promise<void> {
  for (;;) {
    const status = await budgets.status(budgets.scopesFor(key)[0]!);
    if (status.heldUsd === 0 && Math.abs(status.spentUsd - spentUsd) < 1e-9) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('JointAdmissionService (tokens and budgets in one Redis script)', () => {
  let redis: Redis;
  const prefix = uniquePrefix();
  const request = { prompt: 1_000, maxOutput: 500 };

  beforeAll(() => {
    redis = connect();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await removeKeys(redis, prefix);
    await removeKeys(redis, 'rosetta:budget:');
    redis.disconnect();
  });

  it('seeds a new budget from the ledger on the separate path, then takes tokens and budget in one script', async () => {
    const { joint, limits, budgets } = replica(redis, prefix, 0.5);
    const key = budgetKey(2);
    const reserveJoint = jest.spyOn(RedisJointStore.prototype, 'admit');
    const reserveBudget = jest.spyOn(budgets, 'reservePrepared');

    const first = await joint.admit(key, request, () => 0.25);
    expect(reserveJoint).toHaveBeenCalledTimes(1);
    expect(reserveBudget).toHaveBeenCalledTimes(1);
    expect(first.tokens?.reserved).toBe(1_500);
    expect((await budgets.status(budgets.scopesFor(key)[0]!)).spentUsd).toBeCloseTo(0.5);

    const second = await joint.admit(key, request, () => 0.25);
    expect(reserveJoint).toHaveBeenCalledTimes(2);
    expect(reserveBudget).toHaveBeenCalledTimes(1);
    expect(second.tokens?.state.tokens).toMatchObject({ used: 3_000, limit: 100_000 });
    const during = await budgets.status(budgets.scopesFor(key)[0]!);
    expect(during.heldUsd).toBeCloseTo(0.5);

    for (const admitted of [first, second]) {
      await admitted.tokens!.settle(1_200);
      admitted.budget!.settle(0.1);
    }
    await settledTo(budgets, key, 0.7);
    expect((await limits.peekTokens(key))?.used).toBe(2_400);
  });

  it('settles both halves in one script, sent once both are known', async () => {
    const { joint, limits, budgets } = replica(redis, prefix);
    const key = budgetKey(1);
    await joint.admit(key, request, () => 0).then((a) => (a.tokens!.settle(0), a.budget!.settle(0)));
    await settledTo(budgets, key, 0);
    const settle = jest.spyOn(RedisJointStore.prototype, 'settle');

    const admitted = await joint.admit(key, request, () => 0.3);
    await admitted.tokens!.settle(100);
    expect(settle).not.toHaveBeenCalled();
    expect((await limits.peekTokens(key))?.used).toBe(1_500);
    admitted.budget!.settle(0.05);
    expect(settle).toHaveBeenCalledTimes(1);
    await settledTo(budgets, key, 0.05);
    expect((await limits.peekTokens(key))?.used).toBe(100);
  });

  it('never lets two replicas hold past a budget, and records nothing for a refused request', async () => {
    const a = replica(redis, prefix);
    const b = replica(redis, prefix);
    const key = budgetKey(1);
    await a.joint.admit(key, request, () => 0).then((x) => (x.tokens!.settle(0), x.budget!.settle(0)));
    await settledTo(a.budgets, key, 0);

    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).joint.admit(key, request, () => 0.3)));
    const admitted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as GatewayError] : []));
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error.type).toBe('budget_exceeded');
      expect(error.message).toContain("key 'metered-key'");
    }
    // Only the admitted requests' tokens are in the window.
    expect((await a.limits.peekTokens(key))?.used).toBe(3 * 1_500);
  });

  it("refuses with the token 429 when the minute is full, and holds nothing of the budget", async () => {
    const { joint, budgets } = replica(redis, prefix);
    const key = { ...budgetKey(5), tpm: 2_000 };
    await joint.admit(key, request, () => 0).then((x) => (x.tokens!.settle(1_500), x.budget!.settle(0)));
    await settledTo(budgets, key, 0);
    const reserveJoint = jest.spyOn(RedisJointStore.prototype, 'admit');

    const error = await refusal(joint.admit(key, request, () => 0.3));
    expect(reserveJoint).toHaveBeenCalledTimes(1);
    expect(error.type).toBe('rate_limit_error');
    expect(error.message).toContain('needs 1,500 tokens');
    expect((await budgets.status(budgets.scopesFor(key)[0]!)).heldUsd).toBe(0);
  });

  it('tells budget observers what each settle charged, from the script\'s own figures, and each refusal', async () => {
    const { joint, budgets } = replica(redis, prefix, 0.5);
    const key = budgetKey(1);
    const seen: string[] = [];
    budgets.observe({
      charged: (scope, window, before, after) => seen.push(`charged ${scope.kind} ${window.id} ${before.toFixed(2)} -> ${after.toFixed(2)}`),
      refused: (scope, window, used) => seen.push(`refused ${scope.kind} ${window.id} ${used.toFixed(2)}`),
    });
    // The first admission seeds the counter (separate path), the second is the one script.
    for (const cost of [0.1, 0.2]) {
      const admitted = await joint.admit(key, request, () => 0.2);
      await admitted.tokens!.settle(1_000);
      admitted.budget!.settle(cost);
      for (let i = 0; i < 1_000 && seen.length < (cost === 0.1 ? 1 : 2); i++) await new Promise((resolve) => setImmediate(resolve));
    }
    const error = await refusal(joint.admit(key, request, () => 0.25));
    expect(error.type).toBe('budget_exceeded');
    expect(seen).toEqual(['charged key total 0.50 -> 0.60', 'charged key total 0.60 -> 0.80', 'refused key total 0.80']);
  });
});
