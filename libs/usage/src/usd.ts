/**
 * A dollar amount as the APIs show it: a decimal string with up to nine decimals (nano-dollars,
 * the budget counters' unit) and never in exponent form — `0.000027`, not `2.7e-05`.
 */
export function usdString(value: number): string {
  const fixed = value.toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
}
