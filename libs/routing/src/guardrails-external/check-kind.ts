const KIND_SHAPE = /^[a-z0-9_-]{1,32}$/;

/**
 * A kind named by something outside the gateway (a webhook's span, a classifier's category) as it
 * may appear in a placeholder, a ledger row and a metric label: a short identifier, or `fallback`.
 * Lower-cased first, so `EMAIL` stays `email`; anything else (spaces, markup, 200 characters) is
 * not repaired, only replaced, so a hostile answer cannot smuggle text into the redacted prompt.
 */
export function sanitiseKind(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value.length > 32) return fallback;
  const lower = value.toLowerCase();
  return KIND_SHAPE.test(lower) ? lower : fallback;
}
