import { headerSafe } from './routing-headers';

describe('headerSafe', () => {
  it('spells the router’s symbols in ASCII and replaces anything else that is not', () => {
    expect(headerSafe('model=a; score=q − λ·cost → b; p ≥ 0.5…')).toBe('model=a; score=q - lambda.cost -> b; p >= 0.5...');
    expect(headerSafe('line\nbreak')).toBe('line?break');
    expect(headerSafe('x'.repeat(3000))).toHaveLength(2000);
  });
});
