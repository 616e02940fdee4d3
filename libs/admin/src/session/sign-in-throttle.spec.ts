import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  it('refuses an address after its failures fill the window, until the oldest leaves it', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.waitMs('10.0.0.1')).toBe(0);
      throttle.failed('10.0.0.1');
      now += 1_000;
    }
    expect(throttle.waitMs('10.0.0.1')).toBe(57_000);
    expect(throttle.waitMs('10.0.0.2')).toBe(0);
    now += 57_000;
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
  });

  it('forgets an address that signs in', () => {
    const throttle = new SignInThrottle(1, 60_000, () => 0);
    throttle.failed('a');
    expect(throttle.waitMs('a')).toBe(60_000);
    throttle.succeeded('a');
    expect(throttle.waitMs('a')).toBe(0);
  });
});
