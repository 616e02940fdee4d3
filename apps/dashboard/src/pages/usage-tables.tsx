import { NotServed, NOT_SERVED, NOT_SERVED_REQUESTS } from '../components/not-served';
import { count, hitRate, usd } from '../format';
import type { UsageRow } from '../types';
import { USAGE_GROUP_CAP } from '../usage-pages';

export interface Breakdown {
  title: string;
  column: string;
  /** The row's name; null for requests no provider answered (model and provider breakdowns). */
  label: (row: UsageRow) => string | null;
}

/** Biggest spenders first, then most requests (the API answers groups in their dimensions' order). */
function byCost(a: UsageRow, b: UsageRow): number {
  return Number(b.cost_usd) - Number(a.cost_usd) || b.requests - a.requests;
}

/**
 * A breakdown of the range's usage (by key, team, model or provider), biggest spenders first, with
 * its cache hit rate and savings. `complete` is false when the report had more groups than the page
 * reads (USAGE_GROUP_CAP): the ranking is then of those groups only, and says so.
 */
export function UsageTable({ breakdown, rows: answered, limit, complete = true }: { breakdown: Breakdown; rows: UsageRow[]; limit?: number; complete?: boolean }) {
  const rows = [...answered].sort(byCost);
  const total = rows.reduce((sum, row) => sum + Number(row.cost_usd), 0);
  const shown = limit ? rows.slice(0, limit) : rows;
  return (
    <section class="panel breakdown" aria-label={breakdown.title}>
      <h2>{breakdown.title}</h2>
      {rows.length === 0 ? (
        <p class="muted">No requests in this range.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{breakdown.column}</th>
                <th scope="col" class="num">Requests</th>
                <th scope="col" class="num">Errors</th>
                <th scope="col" class="num">Tokens in / out</th>
                <th scope="col" class="num">Cost</th>
                <th scope="col" class="num" title="Requests answered from the response cache">Hit rate</th>
                <th scope="col" class="num" title="What the cache hits would have cost">Saved</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row, index) => {
                const share = total > 0 ? Number(row.cost_usd) / total : 0;
                return (
                  <tr key={index}>
                    <th scope="row" data-label={breakdown.column}>
                      {breakdown.label(row) ?? <NotServed hint={NOT_SERVED_REQUESTS} />}
                      <div class="share" aria-hidden="true">
                        <span style={{ width: `${(share * 100).toFixed(1)}%` }} />
                      </div>
                    </th>
                    <td class="num" data-label="Requests">{count(row.requests)}</td>
                    <td class="num" data-label="Errors">{count(row.errors)}</td>
                    <td class="num" data-label="Tokens">
                      {count(row.input_tokens)} / {count(row.output_tokens)}
                    </td>
                    <td class="num" data-label="Cost">{usd(row.cost_usd)}</td>
                    <td class="num" data-label="Hit rate" title={`${count(row.cache_hits)} cache hits`}>{hitRate(row.cache_hits, row.requests)}</td>
                    <td class="num" data-label="Saved">{usd(row.saved_usd)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {shown.some((row) => breakdown.label(row) === null) && (
        <p class="muted small not-served-note">
          {NOT_SERVED}: {NOT_SERVED_REQUESTS}
        </p>
      )}
      {limit && rows.length > limit && complete && <p class="muted small">and {rows.length - limit} more (in the CSV export)</p>}
      {!complete && (
        <p class="muted small">
          Ranked among the first {count(USAGE_GROUP_CAP)} of more groups (in the order of their ids); the CSV export has every group.
        </p>
      )}
    </section>
  );
}
