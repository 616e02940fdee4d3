import type Redis from 'ioredis';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { GatewayError } from '@rosetta/canonical';
import type { RequestCount } from '../limiter/request-count';
import type { RateLimitOptions } from '../limiter/rate-limit.service';
import { connect, countCommands, removeKeys, uniquePrefix, type CommandLog } from '../limiter/__fixtures__/redis';
import { admissionReplica, keyRecord as apiKey, refusal, type AdmissionReplica } from '../__fixtures__/admission';
import type { JointAdmissionService } from './joint-admission.service';

/** One gateway process's admission over its own Redis connection; its plan sets no limits (each key sets its own). */
function replica(redis: Redis, options: RateLimitOptions): AdmissionReplica {
  return admissionReplica(redis, { plan: { rpm: null, tpm: null }, options });
}

/** A count the data plane deferred to admission (a route that calls an upstream). */
function deferred(): RequestCount {
  return { deferred: true };
}

const request = { prompt: 1_000, maxOutput: 500 };

/** Resolves once the event loop's current turn has ended (its check phase has run). */
/** Counts the client's socket writes until `restore`: how many writes a batch of scripts took. */
function countSocketWrites(redis: Redis): { count: number; restore(): void } {
  const socket = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = socket.write;
  const counter = { count: 0, restore: () => void (socket.write = write) };
  socket.write = (...args: unknown[]) => {
    counter.count++;
    return write.apply(socket, args);
  };
  return counter;
}

function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('JointAdmissionService: requests, tokens and budgets in one round trip', () => {
  const prefix = uniquePrefix();
  let one: Redis;
  let two: Redis;
  let sent: CommandLog;

  beforeAll(async () => {
    one = connect();
    two = connect();
    await Promise.all([one.ping(), two.ping()]);
    sent = countCommands(one);
  });

  afterAll(async () => {
    await removeKeys(one, prefix);
    await removeKeys(one, 'rosetta:budget:');
    one.disconnect();
    two.disconnect();
  });

  /** A key's first admission loads the scripts and seeds its budget from the ledger; what follows is the steady state. */
  async function warm(joint: JointAdmissionService, key: ApiKeyRecord): Promise<void> {
    const admitted = await joint.admit(key, request, () => 0.01, deferred());
    await admitted.tokens?.settle(1_500);
    admitted.budget?.settle(0.01);
    // Settlements go out at the end of this turn of the event loop; one connection answers in
    // order: once a PING sent after that has been answered, the settlement has too.
    await endOfTurn();
    await one.ping();
    sent.reset();
  }

  it('counts the request, reserves its tokens and holds its budget with one command, in one round trip', async () => {
    const { joint, limits } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 10, tpm: 10_000, budget: { usd: 5, period: 'total' } });
    await warm(joint, key);

    const count = deferred();
    const admitted = await joint.admit(key, request, () => 0.25, count);
    expect(sent.commands).toEqual(['evalsha']);
    expect(sent.roundTrips).toBe(1);
    expect(count.state?.requests).toMatchObject({ allowed: true, used: 2, remaining: 8, limit: 10 });
    expect(limits.headers(admitted.tokens!.state)).toEqual({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '8',
      'x-ratelimit-reset-requests': expect.stringMatching(/s$/),
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': String(10_000 - 1_500 - 1_500),
      'x-ratelimit-reset-tokens': expect.stringMatching(/s$/),
    });
  });

  it('costs a key with requests per minute only one command, and a key without limits none', async () => {
    const { joint, limits } = replica(one, { keyPrefix: prefix });
    const limited = apiKey({ rpm: 5 });
    await warm(joint, limited);
    const count = deferred();
    const admitted = await joint.admit(limited, request, () => 0, count);
    expect(sent.commands).toEqual(['evalsha']);
    expect(limits.headers(admitted.tokens!.state)).toEqual({
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '3',
      'x-ratelimit-reset-requests': expect.stringMatching(/s$/),
    });

    sent.reset();
    const nothing = deferred();
    await joint.admit(apiKey({}), request, () => 0, nothing);
    expect(sent.commands).toEqual([]);
    expect(nothing.state).toEqual({ plan: 'metered', requests: null, tokens: null });
  });

  it('refuses past the request limit with the same 429, reserving and holding nothing', async () => {
    const { joint, limits, budgets } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 2, tpm: 10_000, budget: { usd: 5, period: 'total' } });
    await warm(joint, key);
    await joint.admit(key, request, () => 0.25, deferred());

    const count = deferred();
    const error = await refusal(joint.admit(key, request, () => 0.25, count));
    expect(error).toMatchObject({ type: 'rate_limit_error', status: 429, code: 'rate_limit_exceeded', message: 'Rate limit exceeded: 2 requests per minute for plan metered' });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.headers).toMatchObject({ 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-limit-tokens': '10000', 'x-ratelimit-remaining-tokens': '7000' });
    expect(count.state?.requests).toMatchObject({ allowed: false, used: 2 });
    expect((await limits.peekTokens(key))?.used).toBe(3_000);
    expect((await budgets.status(budgets.scopesFor(key)[0]!)).heldUsd).toBeCloseTo(0.25);
  });

  it('still counts a request refused for its tokens or its budget, as a separate RPM check did', async () => {
    const { joint, limits } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 10, tpm: 2_000, budget: { usd: 1, period: 'total' } });
    await warm(joint, key);

    const tokens = await refusal(joint.admit(key, { prompt: 5_000 }, () => 0.1, deferred()));
    expect(tokens).toMatchObject({ type: 'rate_limit_error', message: expect.stringContaining('needs 5,000 tokens') });
    const money = deferred();
    const budget = await refusal(joint.admit(key, { prompt: 10 }, () => 2, money));
    expect(budget).toMatchObject({ type: 'budget_exceeded', message: expect.stringContaining("key 'metered-key'") });
    expect(money.state?.requests).toMatchObject({ used: 3, remaining: 7 });
    expect((await limits.countRequest(key)).requests).toMatchObject({ used: 4 });
  });

  it('lets exactly the limit through across two replicas under concurrent load', async () => {
    const replicas = [replica(one, { keyPrefix: prefix }), replica(two, { keyPrefix: prefix })];
    const key = apiKey({ rpm: 7, tpm: 100_000, budget: { usd: 100, period: 'total' } });
    await warm(replicas[0]!.joint, key);

    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => replicas[i % 2]!.joint.admit(key, request, () => 0.01, deferred())));
    const admitted = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as GatewayError] : []));
    expect(admitted).toHaveLength(6);
    expect(refused).toHaveLength(24);
    for (const error of refused) expect(error).toMatchObject({ type: 'rate_limit_error', message: 'Rate limit exceeded: 7 requests per minute for plan metered' });
    expect((await replicas[1]!.limits.peekTokens(key))?.used).toBe(1_500 + 6 * 1_500);
  });

  it('settles with one command that nothing waits for', async () => {
    const { joint, limits, budgets } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 10, tpm: 10_000, budget: { usd: 5, period: 'total' } });
    await warm(joint, key);
    const admitted = await joint.admit(key, request, () => 0.25, deferred());
    sent.reset();

    sent.hold();
    await admitted.tokens!.settle(100);
    admitted.budget!.settle(0.05);
    // Both halves are handed over and nothing is sent yet: settlements go out together at the end
    // of this turn of the event loop, while Redis has answered nothing (the response never waits).
    expect(sent.commands).toEqual([]);
    await endOfTurn();
    expect(sent.commands).toEqual(['evalsha']);
    sent.release();
    for (;;) {
      const [window, status] = await Promise.all([limits.peekTokens(key), budgets.status(budgets.scopesFor(key)[0]!)]);
      if (window?.used === 1_600 && status.heldUsd === 0) {
        expect(status.spentUsd).toBeCloseTo(0.06);
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

  it('sends the settlements of one turn of the event loop in one socket write, each its own script', async () => {
    const { joint, limits } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 100, tpm: 100_000 });
    await warm(joint, key);
    const admitted = await Promise.all(Array.from({ length: 3 }, () => joint.admit(key, request, () => 0, deferred())));
    const writes = countSocketWrites(one);
    sent.reset();
    try {
      await Promise.all(admitted.map((a) => a.tokens!.settle(200)));
      await endOfTurn();
      expect(sent.commands).toEqual(['evalsha', 'evalsha', 'evalsha']);
      expect(writes.count).toBe(1);
    } finally {
      writes.restore();
    }
    for (;;) {
      if ((await limits.peekTokens(key))?.used === 1_500 + 3 * 200) break;
      await endOfTurn();
    }
  });

  it('sends the admissions and settlements of one turn together in one socket write, each deciding on its own', async () => {
    const { joint, limits } = replica(one, { keyPrefix: prefix });
    const key = apiKey({ rpm: 4, tpm: 100_000, budget: { usd: 100, period: 'total' } });
    await warm(joint, key);
    const earlier = await joint.admit(key, request, () => 0.01, deferred());
    const writes = countSocketWrites(one);
    sent.reset();
    try {
      void earlier.tokens!.settle(200);
      earlier.budget!.settle(0.01);
      const counts = [deferred(), deferred(), deferred()];
      const outcomes = Promise.allSettled(counts.map((count) => joint.admit(key, request, () => 0.01, count)));
      await endOfTurn();
      // One settlement and three admissions: four scripts, one write.
      expect(sent.commands).toEqual(['evalsha', 'evalsha', 'evalsha', 'evalsha']);
      expect(writes.count).toBe(1);
      const settled = await outcomes;
      // The minute had two of its four requests left: each script decided alone, in order.
      expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect(counts.map((count) => count.state?.requests?.used)).toEqual([3, 4, 4]);
      expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ type: 'rate_limit_error', message: 'Rate limit exceeded: 4 requests per minute for plan metered' });
    } finally {
      writes.restore();
    }
    expect((await limits.peekTokens(key))?.used).toBe(1_500 + 200 + 2 * 1_500);
  });

  it('counts in this process when Redis does not answer (RATE_LIMIT_REDIS_FAILURE=local)', async () => {
    const dead = connect('redis://127.0.0.1:6390', { connectTimeout: 200, commandTimeout: 200, retryStrategy: () => 100 });
    try {
      const { joint } = replica(dead, { keyPrefix: prefix, redisTimeoutMs: 300 });
      const key = apiKey({ rpm: 2, tpm: 10_000 });
      const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => joint.admit(key, request, () => 0, deferred())));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ type: 'rate_limit_error', message: 'Rate limit exceeded: 2 requests per minute for plan metered' });
    } finally {
      dead.disconnect();
    }
  });
});
