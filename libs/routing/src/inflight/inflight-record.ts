import { CHECK_ACTIONS, CHECK_TYPES, type GuardrailRecord } from '@rosetta/guardrails';
import type { HoldRef } from '@rosetta/limits';
import { roundUsd, type UsageDraft, type UsageRow } from '@rosetta/usage';
import type { RoutePlan } from '../attempt';

/** What the ledger row of a request whose replica died says: the gateway, not the upstream, failed it. */
export const INTERRUPTED = 'interrupted';
/** nginx answers a request whose upstream connection died with 502; the row says the same. */
export const INTERRUPTED_STATUS = 502;

/**
 * A request in flight, as its replica keeps it in Redis until its ledger row is written: the row
 * it would have if the replica died now — `interrupted` at the reserved cost until its own row is
 * recorded, then that row — and its budget hold.
 */
export interface InflightRecord {
  row: UsageRow;
  hold?: HoldRef;
}

/**
 * The row a request is recorded with if its replica dies before writing its own: who asked, in
 * which dialect, with the client's request id and start time (the ledger's key with the request
 * id, so a late row of its own and this one are the same row), the first model of its plan, the
 * estimated prompt, and the most it could cost.
 */
export function interruptedRow(draft: UsageDraft, plan: RoutePlan, promptTokens: number, reservedUsd: number): UsageRow {
  const first = plan.attempts[0];
  return {
    requestId: draft.requestId,
    clientRequestId: draft.clientRequestId ?? null,
    apiKeyId: draft.apiKeyId ?? null,
    teamId: draft.teamId ?? null,
    dialect: draft.dialect,
    requestedModel: draft.requestedModel ?? null,
    servedModel: first?.model ?? null,
    provider: first?.target.provider ?? null,
    status: INTERRUPTED_STATUS,
    errorType: INTERRUPTED,
    inputTokens: promptTokens,
    outputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: roundUsd(reservedUsd),
    cache: draft.cache ?? null,
    savedUsd: null,
    // The input stage ran before admission: its verdicts are known, and kept (output's are not yet).
    guardrails: draft.guardrails ? [...draft.guardrails] : null,
    latencyMs: 0,
    ttftMs: null,
    streamed: draft.streamed,
    attempts: plan.attempts.length > 0 ? 1 : 0,
    route: draft.route ?? null,
    createdAt: new Date(draft.startedAt),
    endUser: draft.attribution?.endUser ?? null,
    tags: draft.attribution?.tags ?? null,
  };
}

/** What each row field must be: a string, a number (either may be `?` nullable), a boolean, the cache mark, or tags. */
type FieldKind = 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'cache' | 'tags';

/**
 * The record's row fields in a fixed order: a record is a JSON array of their values (a third the
 * size of the object and quicker to write, on every request), then the start time and the hold.
 */
const FIELDS: readonly (readonly [keyof UsageRow, FieldKind])[] = [
  ['requestId', 'string'], ['clientRequestId', 'string?'], ['apiKeyId', 'string?'], ['teamId', 'string?'], ['dialect', 'string'],
  ['requestedModel', 'string?'], ['servedModel', 'string?'], ['provider', 'string?'], ['status', 'number'], ['errorType', 'string?'],
  ['inputTokens', 'number'], ['outputTokens', 'number'], ['cachedTokens', 'number'], ['cacheWriteTokens', 'number'], ['reasoningTokens', 'number'],
  ['costUsd', 'number'], ['cache', 'cache'], ['savedUsd', 'number?'], ['latencyMs', 'number'], ['ttftMs', 'number?'], ['streamed', 'boolean'],
  ['attempts', 'number'], ['route', 'string?'], ['unchargedUsd', 'number?'], ['endUser', 'string?'], ['tags', 'tags'],
];
/**
 * Bumped when the layout changes: a record of another version is skipped, never misread. Version
 * 3 may end with the row's guardrail verdicts, after the hold, only when it has some: a request
 * without verdicts (every key without guardrails) writes the array it wrote in version 2.
 */
const VERSION = 3;
/**
 * Version 2 (decision 0033) had FIELDS and no verdicts; version 1 every field up to
 * `unchargedUsd`, without attribution. A replica of an older version, dying during a rolling
 * upgrade, is still recovered: its rows without verdicts, a version 1's unattributed too.
 */
const V1_FIELDS = FIELDS.length - 2;

export function encodeRecord({ row, hold }: InflightRecord): string {
  const values: unknown[] = [VERSION];
  for (const [field] of FIELDS) values.push(row[field] ?? null);
  values.push(row.createdAt.getTime(), hold ? [hold.counters, hold.holdId, hold.amount] : null);
  if (row.guardrails) values.push(row.guardrails);
  return JSON.stringify(values);
}

function fits(value: unknown, kind: FieldKind): boolean {
  if (kind === 'cache') return value === null || value === 'hit' || value === 'miss';
  if (kind === 'tags') return value === null || (Array.isArray(value) && value.every((tag) => typeof tag === 'string'));
  if (kind.endsWith('?') && value === null) return true;
  if (kind.startsWith('number')) return typeof value === 'number' && Number.isFinite(value);
  return typeof value === kind.replace('?', '');
}

/**
 * A record read back from Redis, or `undefined` for one that is not ours to trust (written by
 * another version, or damaged): the sweep skips it rather than write a wrong row — or one the
 * database would refuse, and refuse again at every sweep.
 */
export function decodeRecord(text: string, recoveredAt: number): InflightRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const version: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
  const fields = version === VERSION || version === 2 ? FIELDS : version === 1 ? FIELDS.slice(0, V1_FIELDS) : undefined;
  if (!fields) return undefined;
  const values = parsed as unknown[];
  const withVerdicts = version === VERSION && values.length === fields.length + 4;
  if (values.length !== fields.length + 3 && !withVerdicts) return undefined;
  const guardrails = withVerdicts ? verdictsOf(values[fields.length + 3]) : null;
  if (guardrails === undefined) return undefined;
  const row: Record<string, unknown> = {};
  for (const [index, [field, kind]] of fields.entries()) {
    const value: unknown = values[index + 1];
    if (!fits(value, kind)) return undefined;
    if (value !== null || field !== 'unchargedUsd') row[field] = value;
  }
  const startedAt: unknown = values[fields.length + 1];
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  const createdAt = new Date(startedAt);
  // An interrupted row's latency is the time until it was recovered; a recorded row keeps its own.
  if (row['errorType'] === INTERRUPTED) row['latencyMs'] = Math.max(0, recoveredAt - startedAt);
  return { row: { ...(row as unknown as UsageRow), guardrails, createdAt }, hold: holdOf(values[fields.length + 2]) };
}

const SOURCES: readonly unknown[] = ['key', 'team', 'plan'];
const STAGES: readonly unknown[] = ['input', 'output'];

/** A record's verdicts as the ledger's `guardrails` takes them, or undefined for any that is not one. */
function verdictsOf(value: unknown): GuardrailRecord[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const v = item as Record<string, unknown>;
    const fits =
      (CHECK_TYPES as readonly unknown[]).includes(v['check']) && SOURCES.includes(v['source']) && Number.isInteger(v['index']) && STAGES.includes(v['stage']) &&
      (CHECK_ACTIONS as readonly unknown[]).includes(v['action']) && Array.isArray(v['kinds']) && (v['kinds'] as unknown[]).every((kind) => typeof kind === 'string') &&
      (v['unavailable'] === undefined || typeof v['unavailable'] === 'string');
    if (!fits) return undefined;
  }
  return value as GuardrailRecord[];
}

function holdOf(value: unknown): HoldRef | undefined {
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [counters, holdId, amount] = value as unknown[];
  if (!Array.isArray(counters) || !counters.every((c) => typeof c === 'string') || typeof holdId !== 'string' || typeof amount !== 'number') return undefined;
  return { counters: counters as string[], holdId, amount };
}
