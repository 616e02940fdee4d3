import type Redis from 'ioredis';
import type { ApiKeyRecord } from '@rosetta/auth';
import { admissionReplica, keyRecord, refusal, type AdmissionReplica } from '../__fixtures__/admission';
import { admissionTag } from '../admission-slot';
import { connect, removeKeys, uniquePrefix } from '../limiter/__fixtures__/redis';
import { BUDGET_KEY_PREFIX } from './redis-budget-store';

const REQUEST = { prompt: 100, maxOutput: 100 };

/** A key whose end users may spend $1 each in total; `budget` gives the key one of its own too. */
function endUserKey(budget?: number): ApiKeyRecord {
  return keyRecord({ endUserBudget: { usd: 1, period: 'total' }, ...(budget === undefined ? {} : { budget: { usd: budget, period: 'total' } }) });
}

function replica(redis: Redis | null, prefix: string, endUserSpentUsd: Record<string, number> = {}): AdmissionReplica {
  return admissionReplica(redis, { plan: { rpm: null, tpm: null }, options: { keyPrefix: prefix }, endUserSpentUsd });
}

/** Each end user holds $0.4 per request, settled at its hold: the third is refused, whatever the others did. */
async function exercise({ joint }: AdmissionReplica, key: ApiKeyRecord): Promise<void> {
  for (const endUser of ['alice', 'bob']) {
    for (let i = 0; i < 2; i++) {
      const admitted = await joint.admit(key, REQUEST, () => 0.4, undefined, endUser);
      admitted.budget!.settle(0.4);
    }
  }
  const refused = await refusal(joint.admit(key, REQUEST, () => 0.4, undefined, 'alice'));
  expect({ status: refused.status, type: refused.type, param: refused.param }).toEqual({ status: 402, type: 'budget_exceeded', param: 'key.end_user_budget' });
  expect(refused.message).toBe(`Budget exceeded: end user "alice" of key 'metered-key' has used $0.8000 of its $1.00 total end-user budget and this request may cost up to $0.4000; it does not reset`);
}

describe('end-user budgets (decision 0033)', () => {
  let redis: Redis;
  const prefix = uniquePrefix();

  beforeAll(() => {
    redis = connect();
  });

  afterAll(async () => {
    await removeKeys(redis, prefix);
    redis.disconnect();
  });

  it('holds each end user of a key to its own budget, in Redis, under the key admission tag', async () => {
    const key = endUserKey();
    const admission = replica(redis, prefix);
    await exercise(admission, key);
    // A request without an end user is not held to the end-user budget (nor to anything else here).
    expect(await admission.joint.admit(key, REQUEST, () => 0.4)).toEqual({ tokens: expect.anything() });
    expect(admission.budgets.scopesFor(key).map((s) => s.kind)).toEqual([]);
    const counters = await redis.keys(`${BUDGET_KEY_PREFIX}${admissionTag(key)}:end_user:${key.id}:*`);
    expect(counters.filter((c) => !c.endsWith(':holds')).length).toBe(2);
    await removeKeys(redis, `${BUDGET_KEY_PREFIX}${admissionTag(key)}`);
  });

  it('seeds an end user counter from what the ledger says that end user spent', async () => {
    const key = endUserKey();
    const { joint } = replica(redis, prefix, { carol: 0.7 });
    const refused = await refusal(joint.admit(key, REQUEST, () => 0.4, undefined, 'carol'));
    expect(refused.param).toBe('key.end_user_budget');
    const dave = await joint.admit(key, REQUEST, () => 0.4, undefined, 'dave');
    dave.budget!.settle(0.1);
    await removeKeys(redis, `${BUDGET_KEY_PREFIX}${admissionTag(key)}`);
  });

  it('checks the key budget and the end user budget together: the first refusal names the budget that refused', async () => {
    const key = endUserKey(0.5);
    const { joint } = replica(redis, prefix);
    (await joint.admit(key, REQUEST, () => 0.4, undefined, 'erin')).budget!.settle(0.4);
    expect((await refusal(joint.admit(key, REQUEST, () => 0.4, undefined, 'frank'))).param).toBe('key.budget');
    await removeKeys(redis, `${BUDGET_KEY_PREFIX}${admissionTag(key)}`);
  });

  it('works the same without Redis (one process)', async () => {
    await exercise(replica(null, prefix), endUserKey());
  });

  it('a key without an end-user budget has no end-user scope whatever the request says: no counter, no Redis work', () => {
    const { budgets } = replica(null, prefix);
    expect(budgets.scopesFor(keyRecord(), 'alice')).toEqual([]);
    expect(budgets.prepare(keyRecord(), 0.1, Date.now(), false, 'alice')).toBeUndefined();
    expect(budgets.scopesFor(keyRecord({ budget: { usd: 1, period: 'day' } }), 'alice').map((s) => s.kind)).toEqual(['key']);
  });

  it('an end user is any text: its counter is named by a digest, never the text', () => {
    const { budgets } = replica(null, prefix);
    const key = endUserKey();
    const hold = budgets.prepare(key, 0.1, Date.now(), false, 'a:{b}\n'.repeat(40))!;
    expect(hold.counters.map((c) => c.key)).toEqual([expect.stringMatching(new RegExp(`^${BUDGET_KEY_PREFIX}\\{k:${key.id}\\}:end_user:${key.id}:[A-Za-z0-9_-]{32}:total$`))]);
  });
});
