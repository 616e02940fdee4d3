import { UsageDraft } from '@rosetta/usage';
import type { RoutePlan } from '../attempt';
import { decodeRecord, encodeRecord, interruptedRow } from './inflight-record';

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
    expect(decodeRecord(encodeRecord({ row, hold }), STARTED + 7_000)).toEqual({ row: { ...row, latencyMs: 7_000 }, hold });
    expect(row).toMatchObject({ requestedModel: 'rosetta/auto', servedModel: 'rosetta/claude-sonnet-4-5', provider: 'anthropic', route: 'auto: coding', attempts: 1, costUsd: 0.0123 });
  });

  it('keep the latency of a row that was recorded before its replica died', () => {
    const row = { ...interruptedRow(draft(), PLAN, 42, 0.0123), status: 200, errorType: null, latencyMs: 812, costUsd: 0.0004 };
    expect(decodeRecord(encodeRecord({ row }), STARTED + 60_000)).toEqual({ row, hold: undefined });
  });

  it('are skipped, not trusted, when damaged, of another version, or holding a value the ledger would refuse', () => {
    const good = JSON.parse(encodeRecord({ row: interruptedRow(draft(), PLAN, 42, 0.0123) })) as unknown[];
    const changed = (index: number, value: unknown) => JSON.stringify(good.map((v, i) => (i === index ? value : v)));
    const damaged = ['', '{', 'null', '[]', '{"row":{}}', JSON.stringify(good.slice(1)), changed(0, 4), changed(1, 7), changed(5, null), changed(9, '502'), changed(16, null), changed(16, '0.01'), changed(17, 'maybe'), changed(21, 'yes'), changed(25, 7), changed(26, 'tag'), changed(26, [1]), changed(27, 'soon')];
    expect(damaged.map((text) => decodeRecord(text, STARTED))).toEqual(damaged.map(() => undefined));
    expect(decodeRecord(JSON.stringify(good), STARTED)?.row.requestId).toBe('req_1');
  });

  it('carry the end user and tags (decision 0033), and still read a version-1 record of an older replica, unattributed', () => {
    const attributed = draft();
    attributed.attributed({ endUser: 'alice', tags: ['env=prod', 'team:search'] });
    const row = interruptedRow(attributed, PLAN, 42, 0.0123);
    expect(row).toMatchObject({ endUser: 'alice', tags: ['env=prod', 'team:search'] });
    expect(decodeRecord(encodeRecord({ row }), STARTED)?.row).toEqual({ ...row, latencyMs: 0 });
    const current = JSON.parse(encodeRecord({ row })) as unknown[];
    const v1 = [1, ...current.slice(1, 25), ...current.slice(27)];
    const { endUser: _endUser, tags: _tags, ...unattributed } = row;
    expect(decodeRecord(JSON.stringify(v1), STARTED)?.row).toEqual({ ...unattributed, latencyMs: 0 });
  });

  it("carry the input stage's verdicts when there are some, and nothing at all when there are none", () => {
    const guarded = draft();
    const verdicts = [{ check: 'pii' as const, source: 'team' as const, index: 0, stage: 'input' as const, action: 'redact' as const, kinds: ['email'] }];
    guarded.guarded(verdicts);
    const row = interruptedRow(guarded, PLAN, 42, 0.0123);
    expect(row.guardrails).toEqual(verdicts);
    const hold = { counters: ['c'], holdId: 'h1', amount: 1 };
    expect(decodeRecord(encodeRecord({ row, hold }), STARTED)).toEqual({ row: { ...row, latencyMs: 0 }, hold });
    // A recorded row keeps every verdict, output's too, and one from an external check that could not decide.
    const recorded = { ...row, status: 200, errorType: null, guardrails: [...verdicts, { check: 'webhook' as const, source: 'key' as const, index: 2, stage: 'output' as const, action: 'log' as const, kinds: [], unavailable: 'timeout' }] };
    expect(decodeRecord(encodeRecord({ row: recorded }), STARTED)?.row).toEqual(recorded);
    // Without verdicts the record is version 2's array under version 3: no field, not even a null.
    const plain = JSON.parse(encodeRecord({ row: interruptedRow(draft(), PLAN, 42, 0.0123), hold })) as unknown[];
    const withVerdicts = JSON.parse(encodeRecord({ row, hold })) as unknown[];
    expect(withVerdicts).toEqual([...plain, verdicts]);
  });

  it('still read a version-2 record of an older replica (no verdicts), and skip verdicts that are not ones', () => {
    const guarded = draft();
    guarded.guarded([{ check: 'pii', source: 'key', index: 0, stage: 'input', action: 'block', kinds: ['email'] }]);
    const row = interruptedRow(guarded, PLAN, 42, 0.0123);
    const current = JSON.parse(encodeRecord({ row })) as unknown[];
    const v2 = [2, ...current.slice(1, -1)];
    expect(decodeRecord(JSON.stringify(v2), STARTED)?.row).toEqual({ ...row, guardrails: null, latencyMs: 0 });
    // A version 2 record never has a verdicts element: one that does is damaged.
    expect(decodeRecord(JSON.stringify([2, ...current.slice(1)]), STARTED)).toBeUndefined();
    const good = current[current.length - 1] as Array<Record<string, unknown>>;
    const bad: unknown[] = [null, [], 'pii', [null], [{ ...good[0], check: 'dlp' }], [{ ...good[0], source: 'org' }], [{ ...good[0], index: 0.5 }], [{ ...good[0], stage: 'both' }],
      [{ ...good[0], action: 'drop' }], [{ ...good[0], kinds: 'email' }], [{ ...good[0], kinds: [1] }], [{ ...good[0], unavailable: 5 }]];
    const decoded = bad.map((verdicts) => decodeRecord(JSON.stringify([...current.slice(0, -1), verdicts]), STARTED));
    expect(decoded).toEqual(bad.map(() => undefined));
  });

  it('drop a hold that is not one, and keep the row', () => {
    const good = JSON.parse(encodeRecord({ row: interruptedRow(draft(), PLAN, 42, 0.0123) })) as unknown[];
    for (const hold of [[[1], 'h', 1], [['c'], 7, 1], { counters: [] }, 'hold']) {
      const decoded = decodeRecord(JSON.stringify([...good.slice(0, -1), hold]), STARTED);
      expect([decoded?.row.requestId, decoded?.hold]).toEqual(['req_1', undefined]);
    }
  });
});
