import { usdString } from './usd';

describe('usdString', () => {
  it('writes dollars as plain decimals, never in exponent form', () => {
    expect(usdString(2.7e-5)).toBe('0.000027');
    expect(usdString(1e-9)).toBe('0.000000001');
    expect(usdString(12.5)).toBe('12.5');
    expect(usdString(100)).toBe('100');
    expect(usdString(0)).toBe('0');
    expect(usdString(1234567.123456789)).toBe('1234567.123456789');
  });
});
