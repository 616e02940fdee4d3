/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The key the load is sent with (BENCH_KEY), created through the gateway's admin API.
const { httpRequest } = require('./proc');
const { ADMIN_TOKEN } = require('./env');

/** The kinds of key `BENCH_KEY` chooses from (`enterprise` is the default). */
const KEY_KINDS = ['enterprise', 'limited', 'budget', 'guarded', 'guarded-input', 'guarded-output'];
/** Finite per-key limits no run comes near (~3,000 req/s is 180,000 a minute). */
const KEY_LIMITS = { rpm: 100_000_000, tpm: 2_000_000_000 };
/** A budget no run comes near: a run spends well under $100 of simulated gpt-4o-mini. */
const KEY_BUDGET = { budget_usd: 1_000_000, budget_period: 'month' };
/** The built-in guardrail checks on both stages (issue 31's bar: <= 0.1 ms p50 on a 2 KB prompt). */
const KEY_GUARDRAILS = { guardrails: [{ check: 'pii', on: 'both', action: 'redact' }, { check: 'secrets', on: 'both', action: 'redact' }] };
/** The same checks on one stage: which stage pays what. */
const STAGE_GUARDRAILS = {
  'guarded-input': { guardrails: KEY_GUARDRAILS.guardrails.map((check) => ({ ...check, on: 'input' })) },
  'guarded-output': { guardrails: KEY_GUARDRAILS.guardrails.map((check) => ({ ...check, on: 'output' })) },
};

async function adminPost(url, path, body) {
  const response = await httpRequest(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${path}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

/**
 * The key the load is sent with, on the enterprise plan (auth and the limiter run on every request):
 * - `enterprise`: unlimited RPM/TPM, no budget;
 * - `limited`: finite, never-reached RPM and TPM on the key (both Redis checks run);
 * - `budget`: `limited` plus a per-key dollar budget and a team with its own budget, both far out
 *   of reach, so both budget counters are held and settled on every request.
 * - `guarded`: `enterprise` plus every built-in guardrail check (PII and secrets, redacting) on
 *   input and output, so each prompt and answer is scanned (and streams decoded);
 * - `guarded-input`, `guarded-output`: the same checks on that stage only;
 * A gateway without budgets (a baseline older than them: no `/admin/teams`) gets `limited` for
 * `budget`; the answer says which kind it got (`kind`) and what was asked (`requested`).
 */
async function setupKey(url, kind = 'enterprise', { fields = {} } = {}) {
  if (!KEY_KINDS.includes(kind)) throw new Error(`unknown key kind '${kind}' (one of ${KEY_KINDS.join(', ')})`);
  const requested = kind;
  if (kind === 'budget' && !(await hasBudgets(url))) kind = 'limited';
  const own = kind === 'guarded' ? KEY_GUARDRAILS : (STAGE_GUARDRAILS[kind] ?? (kind === 'enterprise' ? {} : KEY_LIMITS));
  const body = { name: 'bench', plan: 'enterprise', ...own, ...fields };
  let team = null;
  if (kind === 'budget') {
    team = await adminPost(url, '/admin/teams', { name: 'bench-team', ...KEY_BUDGET });
    Object.assign(body, KEY_BUDGET, { team_id: team.id });
  }
  const created = await adminPost(url, '/admin/keys', body);
  if (!created.key) throw new Error(`POST /admin/keys returned no key: ${JSON.stringify(created).slice(0, 300)}`);
  const info = { kind, requested, fallback: kind !== requested, key: created.key, id: created.id, fields: body, teamId: team ? team.id : null };
  if (kind === 'budget') {
    // The gateway must really charge both budgets: /v1/key shows them with this key.
    const described = await describeKey(url, created.key);
    if (!described.budget || !described.team || !described.team.budget) {
      throw new Error(`the bench key has no key or team budget: GET /v1/key ${JSON.stringify(described).slice(0, 300)}`);
    }
  }
  return info;
}

/** Whether the gateway has teams and budgets (GET /admin/teams answers; 404 before they existed). */
async function hasBudgets(url) {
  const response = await httpRequest(`${url}/admin/teams`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  throw new Error(`GET /admin/teams: HTTP ${response.status} ${response.body.slice(0, 300)}`);
}

/** GET /v1/key with the key itself: its limits, budgets and spend (gateways with budgets). */
async function describeKey(url, key) {
  const response = await httpRequest(`${url}/v1/key`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`GET /v1/key: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

/**
 * An enterprise key with `fields` added (kept for callers of the first harness); see `setupKey`.
 */
async function createKey(url, fields = {}) {
  return (await setupKey(url, 'enterprise', { fields })).key;
}

module.exports = { KEY_KINDS, KEY_LIMITS, KEY_BUDGET, KEY_GUARDRAILS, setupKey, describeKey, createKey };
