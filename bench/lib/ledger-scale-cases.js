'use strict';
// The reports bench/ledger-scale.js times: every request the dashboard's Usage page makes for each
// of its ranges (the timeline by hour or day and the four breakdowns, over its hour-aligned window),
// its CSV export, the month's spend the Keys and Teams pages show, and /admin/usage's default and
// filtered reports.
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const RANGES = [
  ['24h', DAY_MS, 'hour'],
  ['7d', 7 * DAY_MS, 'hour'],
  ['30d', 30 * DAY_MS, 'day'],
  ['90d', 90 * DAY_MS, 'day'],
];

/** [label, filter] for each report as of `now`; `key` is the busiest key's id. */
function reportCases(now, key) {
  // The dashboard's window: up to the next minute, from the hour `span` before (apps/dashboard usage.tsx).
  const to = new Date((Math.floor(now.getTime() / 60_000) + 1) * 60_000);
  const window = (span) => ({ from: new Date(Math.floor((to.getTime() - span) / HOUR_MS) * HOUR_MS), to });
  const cases = [];
  for (const [name, span, bucket] of RANGES) {
    for (const groupBy of [bucket, 'key', 'team', 'model', 'provider']) cases.push([`dashboard ${name}: group_by=${groupBy}`, { ...window(span), groupBy: [groupBy] }]);
  }
  const last = (days) => ({ from: new Date(now.getTime() - days * DAY_MS), to: now });
  const month = { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to: now };
  cases.push(
    ['keys page: month to date, group_by=key', { ...month, groupBy: ['key'] }],
    ['teams page: month to date, group_by=team', { ...month, groupBy: ['team'] }],
    ['dashboard 7d: CSV export (day,key,model)', { ...window(7 * DAY_MS), groupBy: ['day', 'key', 'model'] }],
    ['/admin/usage default (day,key,model), 7 days', { ...last(7), groupBy: ['day', 'key', 'model'] }],
    ['/admin/usage group_by=model,day, busiest key, 30 days', { ...last(30), groupBy: ['model', 'day'], apiKeyId: key }],
    ['/admin/usage group_by=hour, busiest key, 24 hours', { ...last(1), groupBy: ['hour'], apiKeyId: key }],
  );
  return cases;
}

const seconds = (started) => Number(((performance.now() - started) / 1000).toFixed(3));

/** Best of `runs` in seconds (after one warm-up unless `warm` is false), and what the last run returned. */
async function timed(runs, work, warm = true) {
  let result = warm ? await work() : undefined;
  let best = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    result = await work();
    best = Math.min(best, seconds(started));
  }
  return { seconds: best, result };
}

/**
 * Times every case as of `now` through the repository; returns {label: seconds}, the answers by
 * label and how many rows each had.
 */
async function timeReports(reports, now, key, { runs, warm, log, tag }) {
  const timings = {};
  const answers = {};
  const rows = {};
  for (const [label, filter] of reportCases(now, key)) {
    const { seconds: s, result } = await timed(runs, () => reports.report(filter), warm);
    timings[label] = s;
    answers[label] = JSON.stringify(result);
    rows[label] = result.length;
    log(`${tag} ${label}: ${s} s (${result.length} rows)`);
  }
  return { timings, answers, rows };
}

/** Labels whose answers differ between two runs of timeReports. */
function differences(a, b) {
  return Object.keys(a.answers).filter((label) => a.answers[label] !== b.answers[label]);
}

module.exports = { reportCases, timed, timeReports, differences, seconds };
