import { CircuitBreaker } from './circuit-breaker';

const EP = 'acme/gpt-4o-mini';

function breaker(): { cb: CircuitBreaker; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { cb: new CircuitBreaker({ clock: () => clock.now }), clock };
}

function fail(cb: CircuitBreaker, times: number): void {
  for (let i = 0; i < times; i++) cb.onFailure(EP);
}

describe('CircuitBreaker', () => {
  it('starts closed and lets everything through', () => {
    const { cb } = breaker();
    expect(cb.state(EP)).toBe('closed');
    expect(cb.tryAcquire(EP)).toBe(true);
    expect(cb.tryAcquire(EP)).toBe(true);
  });

  it('opens after 5 consecutive failures; a success in between resets the count', () => {
    const { cb } = breaker();
    fail(cb, 4);
    cb.onSuccess(EP);
    fail(cb, 4);
    expect(cb.state(EP)).toBe('closed');
    cb.onFailure(EP);
    expect(cb.state(EP)).toBe('open');
    expect(cb.tryAcquire(EP)).toBe(false);
  });

  it('opens at ≥ 50 % failures over the recent outcomes once there are 10 of them', () => {
    const { cb } = breaker();
    for (let i = 0; i < 4; i++) {
      cb.onSuccess(EP);
      cb.onFailure(EP);
    }
    cb.onSuccess(EP); // 9 outcomes, 4 failures
    expect(cb.state(EP)).toBe('closed');
    cb.onFailure(EP); // 10 outcomes, 5 failures
    expect(cb.state(EP)).toBe('open');
  });

  it('stays closed below the ratio, and with too few samples', () => {
    const { cb } = breaker();
    for (let i = 0; i < 4; i++) {
      cb.onFailure(EP);
      cb.onSuccess(EP);
    }
    expect(cb.state(EP)).toBe('closed'); // 8 samples, 50 %, below the minimum of 10
    for (let i = 0; i < 12; i++) cb.onSuccess(EP);
    cb.onFailure(EP);
    expect(cb.state(EP)).toBe('closed'); // last 20: 4 failures
  });

  it('only counts outcomes younger than 60 s for the ratio', () => {
    const { cb, clock } = breaker();
    for (let i = 0; i < 3; i++) {
      cb.onFailure(EP);
      cb.onFailure(EP);
      cb.onSuccess(EP);
    } // 9 outcomes, 6 failures: below the minimum of 10
    expect(cb.state(EP)).toBe('closed');
    clock.now += 61_000;
    cb.onFailure(EP); // 10 outcomes, but only 1 of them in the last 60 s
    expect(cb.state(EP)).toBe('closed');

    const { cb: fresh } = breaker();
    for (let i = 0; i < 3; i++) {
      fresh.onFailure(EP);
      fresh.onFailure(EP);
      fresh.onSuccess(EP);
    }
    fresh.onFailure(EP); // the same sequence within 60 s trips it
    expect(fresh.state(EP)).toBe('open');
  });

  it('open → half-open after the cool-down; one probe at a time; success closes', () => {
    const { cb, clock } = breaker();
    fail(cb, 5);
    clock.now += 29_999;
    expect(cb.state(EP)).toBe('open');
    expect(cb.tryAcquire(EP)).toBe(false);
    clock.now += 1;
    expect(cb.state(EP)).toBe('half-open');
    expect(cb.tryAcquire(EP)).toBe(true); // the probe
    expect(cb.tryAcquire(EP)).toBe(false); // a concurrent second probe is refused
    expect(cb.info(EP).probeInFlight).toBe(true);
    clock.now += 5_000;
    expect(cb.tryAcquire(EP)).toBe(false);
    cb.onSuccess(EP);
    expect(cb.state(EP)).toBe('closed');
    expect(cb.tryAcquire(EP)).toBe(true);
    expect(cb.tryAcquire(EP)).toBe(true);
  });

  it('a failed probe re-opens with a doubled cool-down, capped at 5 minutes; success resets it', () => {
    const { cb, clock } = breaker();
    fail(cb, 5);
    const cooldowns: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { openUntil } = cb.info(EP);
      cooldowns.push(openUntil! - clock.now);
      clock.now = openUntil! - 1;
      expect(cb.tryAcquire(EP)).toBe(false);
      clock.now = openUntil!;
      expect(cb.tryAcquire(EP)).toBe(true);
      cb.onFailure(EP);
      expect(cb.state(EP)).toBe('open');
    }
    expect(cooldowns).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    clock.now = cb.info(EP).openUntil!;
    expect(cb.tryAcquire(EP)).toBe(true);
    cb.onSuccess(EP);
    expect(cb.state(EP)).toBe('closed');
    fail(cb, 5);
    expect(cb.info(EP).openUntil! - clock.now).toBe(30_000);
  });

  it('ignores late outcomes while open, and release() frees an abandoned probe', () => {
    const { cb, clock } = breaker();
    fail(cb, 5);
    cb.onSuccess(EP); // a call that started before the opening
    expect(cb.state(EP)).toBe('open');
    clock.now += 30_000;
    expect(cb.tryAcquire(EP)).toBe(true);
    cb.release(EP);
    expect(cb.state(EP)).toBe('half-open');
    expect(cb.tryAcquire(EP)).toBe(true);
    expect(cb.tryAcquire(EP)).toBe(false);
  });

  it('a probe that never reports frees its slot after the lease', () => {
    const clock = { now: 0 };
    const cb = new CircuitBreaker({ clock: () => clock.now, probeLeaseMs: 10_000 });
    fail(cb, 5);
    clock.now = 30_000;
    expect(cb.tryAcquire(EP)).toBe(true);
    clock.now = 39_999;
    expect(cb.tryAcquire(EP)).toBe(false);
    clock.now = 40_000;
    expect(cb.tryAcquire(EP)).toBe(true);
  });

  it('keeps endpoints apart and honours custom settings and an explicit now', () => {
    const cb = new CircuitBreaker({ consecutiveFailures: 2, cooldownMs: 1_000, maxCooldownMs: 1_500, clock: () => 0 });
    cb.onFailure('a/x', 0);
    cb.onFailure('a/x', 0);
    expect(cb.state('a/x', 0)).toBe('open');
    expect(cb.state('b/y', 0)).toBe('closed');
    expect(cb.tryAcquire('a/x', 1_000)).toBe(true);
    cb.onFailure('a/x', 1_000);
    expect(cb.info('a/x', 1_000).openUntil).toBe(2_500);
  });
});
