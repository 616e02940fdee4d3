/**
 * One wording for a request, a model or a usage row that no provider answered: "not served", with
 * what to do about it in a tooltip (and, where there is room, beside it).
 */
export const NOT_SERVED = 'not served';

/** What to do about a model nobody serves. */
export const ADD_A_PROVIDER = 'No enabled provider with a key serves this model: add a provider for it on the Providers page, or set the key of one that lists it.';

/** For figures that add up many requests (usage): why none of them reached a provider. */
export const NOT_SERVED_REQUESTS =
  'Requests no provider answered: the gateway refused them first (a bad request, a limit or a budget: see Requests, errors only), or no enabled provider with a key serves their model (add one on the Providers page, or set its key).';

/** Why one request reached no provider, from what the ledger recorded for it. */
export function notServedHint(row: { status: number; error_type: string | null }): string {
  if (row.status >= 500 || row.error_type === 'configuration_error') return ADD_A_PROVIDER;
  return `Refused by the gateway before any provider was called (${row.status}${row.error_type ? ` ${row.error_type}` : ''}): see its status.`;
}

export function NotServed({ hint }: { hint: string }) {
  return (
    <span class="not-served" title={hint}>
      {NOT_SERVED}
    </span>
  );
}
