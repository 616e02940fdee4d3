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
    latencyMs: 0,
    ttftMs: null,
    streamed: draft.streamed,
    attempts: plan.attempts.length > 0 ? 1 : 0,
    route: draft.route ?? null,
    createdAt: new Date(draft.startedAt),
  };
}

/**
 * A record read back from Redis, or `undefined` for one that is not ours to trust (written by
 * another version, or damaged): the sweep skips it rather than write a wrong row.
 */
export function decodeRecord(text: string, recoveredAt: number): InflightRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = parsed as { row?: Record<string, unknown>; hold?: Record<string, unknown> } | null;
  const row = record?.row;
  if (!row || typeof row['requestId'] !== 'string' || typeof row['dialect'] !== 'string' || typeof row['costUsd'] !== 'number') return undefined;
  const createdAt = new Date(String(row['createdAt']));
  if (Number.isNaN(createdAt.getTime())) return undefined;
  const hold = record.hold;
  const validHold = hold && Array.isArray(hold['counters']) && hold['counters'].every((c) => typeof c === 'string') && typeof hold['holdId'] === 'string' && typeof hold['amount'] === 'number';
  const latencyMs = row['errorType'] === INTERRUPTED ? Math.max(0, recoveredAt - createdAt.getTime()) : Number(row['latencyMs']) || 0;
  return {
    // An interrupted row's latency is the time until it was recovered; a recorded row keeps its own.
    row: { ...(row as unknown as UsageRow), createdAt, latencyMs },
    hold: validHold ? (hold as unknown as HoldRef) : undefined,
  };
}
