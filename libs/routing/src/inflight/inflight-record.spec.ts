import { UsageDraft } from '@rosetta/usage';
import type { RoutePlan } from '../attempt';
import { decodeRecord, interruptedRow } from './inflight-record';

const STARTED = Date.UTC(2026, 10, 29, 8);
const PLAN = { attempts: [{ model: 'rosetta/claude-sonnet-4-5', key: 'anthropic/claude-sonnet-4-5', target: { provider: 'anthropic' } }] } as unknown as RoutePlan;

function draft(): UsageDraft {
  const d = new UsageDraft({ requestId: 'req_1', apiKeyId: 'k1', dialect: 'anthropic', startedAt: STARTED });
  d.planned('rosetta/auto', false, 'auto: coding', 42);
  return d;
}

describe('in-flight records', () => {
  it('read back as the row they were written with, its latency the time until recovery', () => {
    const row = interruptedRow(draft(), PLAN, 42, 0.0123);
    const hold = { counters: ['rosetta:budget:{k:k1}:key:k1:2026-11-29'], holdId: 'h1', amount: 12_300_000 };
    expect(decodeRecord(JSON.stringify({ row, hold }), STARTED + 7_000)).toEqual({ row: { ...row, latencyMs: 7_000 }, hold });
    expect(row).toMatchObject({ requestedModel: 'rosetta/auto', servedModel: 'rosetta/claude-sonnet-4-5', provider: 'anthropic', route: 'auto: coding', attempts: 1, costUsd: 0.0123 });
  });

  it('keep the latency of a row that was recorded before its replica died', () => {
    const row = { ...interruptedRow(draft(), PLAN, 42, 0.0123), status: 200, errorType: null, latencyMs: 812, costUsd: 0.0004 };
    expect(decodeRecord(JSON.stringify({ row }), STARTED + 60_000)).toEqual({ row, hold: undefined });
  });

  it('are skipped, not trusted, when damaged or of another shape', () => {
    const row = interruptedRow(draft(), PLAN, 42, 0.0123);
    for (const text of ['', '{', 'null', '[]', '{"row":null}', JSON.stringify({ row: { ...row, requestId: 7 } }), JSON.stringify({ row: { ...row, createdAt: 'soon' } }), JSON.stringify({ row: { ...row, costUsd: '1' } })]) {
      expect(decodeRecord(text, STARTED)).toBeUndefined();
    }
  });

  it('drop a hold that is not one, and keep the row', () => {
    const row = interruptedRow(draft(), PLAN, 42, 0.0123);
    expect(decodeRecord(JSON.stringify({ row, hold: { counters: [1], holdId: 'h', amount: 1 } }), STARTED)?.hold).toBeUndefined();
    expect(decodeRecord(JSON.stringify({ row, hold: { counters: [1], holdId: 'h', amount: 1 } }), STARTED)?.row.requestId).toBe('req_1');
  });
});
