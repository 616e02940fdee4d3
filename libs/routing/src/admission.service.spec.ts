import type { ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { rateLimitHeaders, type Admission, type BudgetService, type JointAdmissionService, type LimitState, type RateLimitService, type RequestCount } from '@rosetta/limits';
import { UsageDraft } from '@rosetta/usage';
import { AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
import type { InflightLedgerService } from './inflight/inflight-ledger.service';
import type { InflightRecord } from './inflight/inflight-record';
import type { CallContext } from './outcome';

const KEY = { id: 'k1', plan: 'pro' } as ApiKeyRecord;
const PLAN = { attempts: [] } as unknown as RoutePlan;
const WINDOW = { allowed: true, used: 1, remaining: 9, resetMs: 0, windowResetMs: 60_000, limit: 10 };

interface Fakes {
  rpm: number | null;
  tpm?: number | null;
  budgets?: number;
  /** What the joint admission does with the count it is handed. */
  joint?: (count: RequestCount | undefined) => Promise<Admission>;
}

/** AdmissionService over fakes: the limits a key resolves to, its budgets, and a joint admission that records its calls. */
function setup({ rpm, tpm = null, budgets = 0, joint }: Fakes) {
  const calls: Array<RequestCount | undefined> = [];
  const limits = { limitsFor: () => ({ rpm, tpm }), headers: rateLimitHeaders } as unknown as RateLimitService;
  const budgetService = { scopesFor: () => Array.from({ length: budgets }) } as unknown as BudgetService;
  const jointService = {
    admit: async (_key: ApiKeyRecord, _tokens: unknown, _cost: unknown, count: RequestCount | undefined) => {
      calls.push(count);
      return joint ? joint(count) : {};
    },
  } as unknown as JointAdmissionService;
  const opened: InflightRecord[] = [];
  const inflight = { open: (record: InflightRecord) => opened.push(record) } as unknown as InflightLedgerService;
  const headers: Record<string, string> = {};
  const count: RequestCount = { deferred: true };
  const ctx = { requestId: 'req_1', key: KEY, requestCount: count, setHeaders: (h: Record<string, string>) => Object.assign(headers, h) } as unknown as CallContext;
  return { admission: new AdmissionService(limits, budgetService, jointService, inflight), ctx, count, calls, headers, opened };
}

describe('AdmissionService', () => {
  it('hands a deferred count to the joint admission for a key with requests per minute only', async () => {
    const state: LimitState = { plan: 'pro', requests: WINDOW, tokens: null };
    const { admission, ctx, count, calls, headers } = setup({
      rpm: 10,
      joint: async (c) => {
        c!.state = state;
        return { tokens: { reserved: 0, state, settle: async () => undefined } };
      },
    });
    await admission.admit({}, ctx, 10, PLAN);
    expect(calls).toEqual([count]);
    expect(headers).toEqual({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '9', 'x-ratelimit-reset-requests': '1m0s' });
  });

  it('does no I/O for a key without limits or budgets, and notes the request as counted', async () => {
    const { admission, ctx, count, calls, headers } = setup({ rpm: null });
    await expect(admission.admit({}, ctx, 10, PLAN)).resolves.toEqual({});
    expect(calls).toEqual([]);
    expect(count.state).toEqual({ plan: 'pro', requests: null, tokens: null });
    expect(headers).toEqual({});
  });

  it('skips the joint admission when the request was counted up front and nothing else is limited', async () => {
    const { admission, ctx, calls, headers } = setup({ rpm: 10 });
    ctx.requestCount = { deferred: false, state: { plan: 'pro', requests: WINDOW } };
    await admission.admit({}, ctx, 10, PLAN);
    expect(calls).toEqual([]);
    expect(headers['x-ratelimit-remaining-requests']).toBe('9');
  });

  it('puts the counted window on a refused answer (a 402 carries no headers of its own)', async () => {
    const { admission, ctx, headers } = setup({
      rpm: 10,
      tpm: 1_000,
      budgets: 1,
      joint: async (c) => {
        c!.state = { plan: 'pro', requests: WINDOW, tokens: { ...WINDOW, used: 200, remaining: 800, limit: 1_000 } };
        throw new GatewayError('budget_exceeded', 'Budget exceeded');
      },
    });
    await expect(admission.admit({}, ctx, 10, PLAN)).rejects.toMatchObject({ type: 'budget_exceeded' });
    expect(headers).toMatchObject({ 'x-ratelimit-remaining-requests': '9', 'x-ratelimit-remaining-tokens': '800' });
  });

  describe('keeping the request in flight until its ledger row is written', () => {
    const priced = {
      attempts: [{ model: 'rosetta/gpt-4o-mini', key: 'openai/gpt-4o-mini', target: { provider: 'openai', maxCompletionTokens: 1_000 }, pricing: { prompt: '0.000001', completion: '0.000002' } }],
    } as unknown as RoutePlan;
    const draft = () => {
      const d = new UsageDraft({ requestId: 'req_1', clientRequestId: 'client-7', apiKeyId: 'k1', teamId: 't1', dialect: 'openai', startedAt: Date.UTC(2026, 10, 29) });
      d.planned('rosetta/gpt-4o-mini', true, undefined, 10);
      return d;
    };

    it('opens the row an interrupted request gets: at the most it can cost, for a key without a budget', async () => {
      const { admission, ctx, opened } = setup({ rpm: null });
      ctx.usage = draft();
      await admission.admit({ maxOutputTokens: 100 }, ctx, 10, priced);
      // 13 prompt tokens (10 and the 25 % margin) at $1/M and 100 output tokens at $2/M.
      expect(opened).toEqual([
        {
          hold: undefined,
          row: expect.objectContaining({
            requestId: 'req_1', clientRequestId: 'client-7', apiKeyId: 'k1', teamId: 't1', dialect: 'openai', requestedModel: 'rosetta/gpt-4o-mini',
            servedModel: 'rosetta/gpt-4o-mini', provider: 'openai', status: 502, errorType: 'interrupted', inputTokens: 10, outputTokens: 0,
            costUsd: 13e-6 + 200e-6, streamed: true, createdAt: new Date(Date.UTC(2026, 10, 29)),
          }),
        },
      ]);
    });

    it('carries the budget hold, at its amount, so a surviving replica can charge it', async () => {
      const ref = { counters: ['rosetta:budget:{k:k1}:key:k1:d'], holdId: 'hold-1', amount: 250_000 };
      const { admission, ctx, opened } = setup({ rpm: null, budgets: 1, joint: async () => ({ budget: { capUsd: 0.0005, ref, settle: () => undefined } }) });
      ctx.usage = draft();
      await admission.admit({ maxOutputTokens: 100 }, ctx, 10, priced);
      expect(opened.map((r) => [r.hold, r.row.costUsd])).toEqual([[ref, 0.00025]]);
    });

    it('opens nothing for a request whose row is already recorded (the client left while it waited)', async () => {
      const { admission, ctx, opened } = setup({ rpm: null });
      ctx.usage = draft();
      ctx.usage.closed(0);
      await admission.admit({}, ctx, 10, priced);
      expect(opened).toEqual([]);
    });
  });
});
