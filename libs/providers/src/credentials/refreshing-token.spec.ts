import { RefreshingToken, type ExpiringToken } from './refreshing-token';

/** A token service whose answers the test releases one by one, and a clock the test moves. */
function harness(lifeMs = 3_600_000) {
  let now = 1_000_000;
  let issued = 0;
  const pending: Array<{ resolve(t: ExpiringToken): void; reject(e: Error): void }> = [];
  const failures: unknown[] = [];
  const token = new RefreshingToken({
    now: () => now,
    fetch: () => new Promise<ExpiringToken>((resolve, reject) => pending.push({ resolve, reject })),
    onBackgroundFailure: (error) => failures.push(error),
  });
  return {
    token,
    failures,
    fetches: () => issued + pending.length,
    advance: (ms: number) => { now += ms; },
    /** Answers the oldest fetch with the next token, valid for `lifeMs` from now. */
    answer: async () => {
      const next = pending.shift()!;
      issued++;
      next.resolve({ token: `t${issued}`, expiresAtMs: now + lifeMs });
      await Promise.resolve();
    },
    fail: async (message: string) => {
      pending.shift()!.reject(new Error(message));
      await Promise.resolve();
    },
  };
}

describe('RefreshingToken', () => {
  it('fetches once for any number of concurrent calls, then serves the cached token without I/O', async () => {
    const h = harness();
    const calls = [h.token.get(), h.token.get(), h.token.get()];
    expect(h.fetches()).toBe(1);
    await h.answer();
    expect(await Promise.all(calls)).toEqual(['t1', 't1', 't1']);
    h.advance(50 * 60_000); // 10 minutes before expiry: still fresh
    expect(await h.token.get()).toBe('t1');
    expect(h.fetches()).toBe(1);
  });

  it('refreshes once behind the calls within five minutes of expiry, and they keep the valid token meanwhile', async () => {
    const h = harness();
    const first = h.token.get();
    await h.answer();
    await first;
    h.advance(56 * 60_000); // 4 minutes left
    expect(await Promise.all([h.token.get(), h.token.get()])).toEqual(['t1', 't1']);
    expect(h.fetches()).toBe(2);
    await h.answer();
    expect(await h.token.get()).toBe('t2');
  });

  it('makes calls wait for a new token once the cached one is about to expire', async () => {
    const h = harness();
    const first = h.token.get();
    await h.answer();
    await first;
    h.advance(60 * 60_000 - 5_000); // 5 s left: not sent
    const waiting = h.token.get();
    await h.answer();
    expect(await waiting).toBe('t2');
  });

  it('a failed fetch fails the calls waiting for it; the next call tries again', async () => {
    const h = harness();
    const failed = h.token.get();
    await h.fail('metadata server unreachable');
    await expect(failed).rejects.toThrow('metadata server unreachable');
    const retried = h.token.get();
    await h.answer();
    expect(await retried).toBe('t1');
  });

  it('a failed refresh behind a valid token keeps that token and reports the failure', async () => {
    const h = harness();
    const first = h.token.get();
    await h.answer();
    await first;
    h.advance(57 * 60_000);
    expect(await h.token.get()).toBe('t1');
    await h.fail('denied');
    await new Promise(setImmediate);
    expect(h.failures.map((e) => (e as Error).message)).toEqual(['denied']);
    expect(await h.token.get()).toBe('t1'); // and a new refresh is under way
    expect(h.fetches()).toBe(2);
  });

  it('a short-lived token is refreshed at half its life', async () => {
    const h = harness(60_000);
    const first = h.token.get();
    await h.answer();
    await first;
    h.advance(29_000);
    expect(await h.token.get()).toBe('t1');
    expect(h.fetches()).toBe(1);
    h.advance(2_000); // past half its life, 29 s left
    expect(await h.token.get()).toBe('t1');
    expect(h.fetches()).toBe(2);
  });

  it('a call waits at most fetchTimeoutMs for the token service; the fetch goes on and serves later calls', async () => {
    jest.useFakeTimers();
    try {
      let answer!: (t: ExpiringToken) => void;
      const token = new RefreshingToken({ fetchTimeoutMs: 2_000, fetch: () => new Promise((resolve) => { answer = resolve; }) });
      const waiting = token.get();
      jest.advanceTimersByTime(2_000);
      await expect(waiting).rejects.toThrow('the token service did not answer within 2000 ms');
      answer({ token: 'late', expiresAtMs: Date.now() + 3_600_000 });
      await Promise.resolve();
      expect(await token.get()).toBe('late');
    } finally {
      jest.useRealTimers();
    }
  });

  it('invalidate() drops the cached token: the next call fetches', async () => {
    const h = harness();
    const first = h.token.get();
    await h.answer();
    await first;
    h.token.invalidate();
    const next = h.token.get();
    await h.answer();
    expect(await next).toBe('t2');
  });
});
