/** How the pages write numbers, money and times. */

const integer = new Intl.NumberFormat('en-US');

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : integer.format(value);
}

/** Dollars: cents for sums of a dollar or more, more digits below that, never exponent form. */
export function usd(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const amount = Number(value);
  if (!Number.isFinite(amount)) return '—';
  if (amount === 0) return '$0';
  if (Math.abs(amount) >= 1) return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${amount.toLocaleString('en-US', { maximumSignificantDigits: 3, maximumFractionDigits: 9 })}`;
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A recent time in few characters: the time alone today, the day and time this year, else in full. */
export function shortDateTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (date.toDateString() === now.toDateString()) return time;
  if (date.getFullYear() === now.getFullYear()) return `${date.toLocaleDateString('en-GB', { day: '2-digit', month: 'short' })}, ${time}`;
  return dateTime(iso);
}

/** "3 min ago", "in 2 days": for last-used and expiry columns. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1]];
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of units) if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.round(seconds / size), unit);
  return '—';
}

export function pct(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(value >= 99.95 || value === 0 ? 0 : 1)}%`;
}

/** The share of requests answered from the response cache; "—" when there were none. */
export function hitRate(hits: number | null | undefined, requests: number): string {
  if (hits === null || hits === undefined || requests === 0) return '—';
  return pct((100 * hits) / requests);
}
