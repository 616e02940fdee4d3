import { useEffect, useMemo, useState } from 'preact/hooks';
import { query } from '../api';
import { TimeChart } from '../components/time-chart';
import { Empty, ErrorNote, Loading, PageHeader } from '../components/ui';
import { count, hitRate, usd } from '../format';
import { useResource } from '../use-resource';
import type { UsageRow } from '../types';
import { getWholeUsage, type WholeUsageReport } from '../usage-pages';
import { UsageTable, type Breakdown } from './usage-tables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RANGES = [
  { id: '24h', label: 'Last 24 hours', span: DAY, bucket: 'hour' as const },
  { id: '7d', label: 'Last 7 days', span: 7 * DAY, bucket: 'hour' as const },
  { id: '30d', label: 'Last 30 days', span: 30 * DAY, bucket: 'day' as const },
  { id: '90d', label: 'Last 90 days', span: 90 * DAY, bucket: 'day' as const },
];
const REFRESH_MS = 15_000;

const BREAKDOWNS: Record<'key' | 'team' | 'model' | 'provider' | 'end_user' | 'tag', Breakdown> = {
  key: { title: 'Top spenders (keys)', column: 'Key', label: (row) => row.key_name ?? (row.api_key_id ? 'deleted key' : 'no key') },
  team: { title: 'By team', column: 'Team', label: (row) => row.team_name ?? 'no team' },
  model: { title: 'By model', column: 'Model', label: (row) => row.served_model ?? null },
  provider: { title: 'By provider', column: 'Provider', label: (row) => row.provider ?? null },
  end_user: { title: 'Top end users', column: 'End user', label: (row) => row.end_user ?? 'no end user' },
  // A request with several tags is in each tag's row.
  tag: { title: 'By tag', column: 'Tag', label: (row) => row.tag ?? 'untagged' },
};
/** Long lists: only the biggest spenders are shown. */
const TOP_ONLY = new Set(['key', 'end_user', 'tag']);

/** Buckets from `from` to `to` with each row's figures, zero where nothing happened. */
function series(report: WholeUsageReport, bucket: 'hour' | 'day'): { times: number[]; rows: UsageRow[] } {
  const step = bucket === 'hour' ? HOUR : DAY;
  const start = Math.floor(new Date(report.from).getTime() / step) * step;
  const byTime = new Map(report.data.map((row) => [new Date(bucket === 'hour' ? row.hour! : `${row.day!}T00:00:00Z`).getTime(), row]));
  const times: number[] = [];
  const rows: UsageRow[] = [];
  for (let t = start; t < new Date(report.to).getTime(); t += step) {
    times.push(t / 1000);
    rows.push(byTime.get(t) ?? { requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0, cost_usd: '0', cache_hits: 0, saved_usd: '0' });
  }
  return { times, rows };
}

const money = (value: number): string => usd(value);
const whole = (value: number): string => (value >= 10_000 ? `${Math.round(value / 1000)}k` : count(Math.round(value)));

/** Usage: cost, requests and tokens over time, what the response cache saved, and who and what spent it; refreshed every 15 s. */
export function UsagePage() {
  const [rangeId, setRangeId] = useState('24h');
  const range = RANGES.find((r) => r.id === rangeId)!;
  // The window moves with each refresh: recomputed when the range changes or a minute passes.
  const [minute, setMinute] = useState(() => Math.floor(Date.now() / 60_000));
  const window = useMemo(() => {
    const to = new Date((minute + 1) * 60_000);
    return { from: new Date(Math.floor((to.getTime() - range.span) / HOUR) * HOUR).toISOString(), to: to.toISOString() };
  }, [range, minute]);
  const at = (groupBy: string): string => `/admin/usage${query({ group_by: groupBy, ...window })}`;
  // Each report whole (its pages put together, up to a cap): see usage-pages.ts.
  const timeline = useResource<WholeUsageReport>(at(range.bucket), REFRESH_MS, getWholeUsage);
  const tables = {
    key: useResource<WholeUsageReport>(at('key'), REFRESH_MS, getWholeUsage),
    team: useResource<WholeUsageReport>(at('team'), REFRESH_MS, getWholeUsage),
    model: useResource<WholeUsageReport>(at('model'), REFRESH_MS, getWholeUsage),
    provider: useResource<WholeUsageReport>(at('provider'), REFRESH_MS, getWholeUsage),
    end_user: useResource<WholeUsageReport>(at('end_user'), REFRESH_MS, getWholeUsage),
    tag: useResource<WholeUsageReport>(at('tag'), REFRESH_MS, getWholeUsage),
  };
  const points = useMemo(() => (timeline.data ? series(timeline.data, range.bucket) : undefined), [timeline.data, range.bucket]);
  const charts = useMemo(() => {
    if (!points) return undefined;
    return {
      cost: [{ label: 'Cost', color: '#7c3aed', values: points.rows.map((r) => Number(r.cost_usd)) }],
      requests: [
        { label: 'Requests', color: '#2563eb', values: points.rows.map((r) => r.requests) },
        { label: 'Errors', color: '#dc2626', values: points.rows.map((r) => r.errors) },
        { label: 'Cache hits', color: '#16a34a', values: points.rows.map((r) => r.cache_hits) },
      ],
      tokens: [
        { label: 'Input', color: '#0891b2', values: points.rows.map((r) => r.input_tokens) },
        { label: 'Output', color: '#ca8a04', values: points.rows.map((r) => r.output_tokens) },
      ],
    };
  }, [points]);
  const totals = timeline.data?.totals;
  const csv = `/admin/usage${query({ group_by: 'day,key,model', ...window, format: 'csv' })}`;
  const refresh = (): void => setMinute(Math.floor(Date.now() / 60_000));
  useEffect(() => {
    const timer = setInterval(refresh, 60_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <>
      <PageHeader
        title="Usage"
        lead="From the ledger: one row per request, written within a second of its end. This page refreshes every 15 seconds."
        actions={
          <>
            <label class="inline">
              <span class="visually-hidden">Range</span>
              <select value={rangeId} onChange={(e) => setRangeId(e.currentTarget.value)} aria-label="Range">
                {RANGES.map((r) => (
                  <option key={r.id} value={r.id}>{r.label}</option>
                ))}
              </select>
            </label>
            <button type="button" class="secondary" onClick={refresh}>Refresh</button>
            <a class="button secondary" href={csv} download>
              Export CSV
            </a>
          </>
        }
      />
      {timeline.error && <ErrorNote error={timeline.error} retry={timeline.reload} />}
      {!timeline.data && !timeline.error && <Loading what="usage" />}
      {totals && (
        <dl class="totals">
          <div><dt>Cost</dt><dd>{usd(totals.cost_usd)}</dd></div>
          <div><dt>Requests</dt><dd>{count(totals.requests)}</dd></div>
          <div><dt>Errors</dt><dd>{count(totals.errors)}</dd></div>
          {/* Tokens in and out share a tile, so the cache's two fit in a 1280 px window without cutting the cost short. */}
          <div><dt>Tokens in / out</dt><dd>{count(totals.input_tokens)} / {count(totals.output_tokens)}</dd></div>
          <div title={`${count(totals.cache_hits)} of ${count(totals.requests)} requests answered from the response cache`}><dt>Cache hit rate</dt><dd>{hitRate(totals.cache_hits, totals.requests)}</dd></div>
          <div title="What the cache hits would have cost"><dt>Saved by cache</dt><dd>{usd(totals.saved_usd)}</dd></div>
        </dl>
      )}
      {totals && totals.requests === 0 && (
        <Empty>
          No requests in the {range.label.toLowerCase()}. Issue a key on the Keys page and call the gateway with it: its usage shows here within seconds.
        </Empty>
      )}
      {charts && points && (
        <div class="charts">
          <TimeChart title="Cost (USD)" times={points.times} series={charts.cost} format={money} summary={`${usd(totals!.cost_usd)} in total`} />
          <TimeChart whole title="Requests" times={points.times} series={charts.requests} format={whole} summary={`${count(totals!.requests)} requests, ${count(totals!.errors)} errors`} />
          <TimeChart whole title="Tokens" times={points.times} series={charts.tokens} format={whole} summary={`${count(totals!.input_tokens)} in, ${count(totals!.output_tokens)} out`} />
        </div>
      )}
      <div class="breakdowns">
        {(Object.keys(tables) as Array<keyof typeof tables>).map((name) => {
          const table = tables[name];
          if (table.error) return <ErrorNote key={name} error={table.error} retry={table.reload} />;
          if (!table.data) return <Loading key={name} what={BREAKDOWNS[name].title.toLowerCase()} />;
          return <UsageTable key={name} breakdown={BREAKDOWNS[name]} rows={table.data.data} complete={table.data.complete} limit={TOP_ONLY.has(name) ? 10 : undefined} />;
        })}
      </div>
    </>
  );
}
