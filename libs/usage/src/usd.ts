/**
 * A dollar amount as the APIs show it: a decimal string with up to nine decimals (nano-dollars,
 * the budget counters' unit) and never in exponent form — `0.000027`, not `2.7e-05`.
 */
export function usdString(value: number): string {
  // Trailing zeros and a bare point trimmed by index: this runs on every priced answer.
  const fixed = value.toFixed(9);
  let end = fixed.length;
  while (fixed.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (fixed.charCodeAt(end - 1) === 46 /* . */) end--;
  const trimmed = fixed.slice(0, end);
  return trimmed === '-0' ? '0' : trimmed;
}
