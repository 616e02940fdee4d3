import type { ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { rateLimitHeaders, type Admission, type BudgetService, type JointAdmissionService, type LimitState, type RateLimitService, type RequestCount } from '@rosetta/limits';
import { AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
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
  const headers: Record<string, string> = {};
  const count: RequestCount = { deferred: true };
  const ctx = { requestId: 'req_1', key: KEY, requestCount: count, setHeaders: (h: Record<string, string>) => Object.assign(headers, h) } as unknown as CallContext;
  return { admission: new AdmissionService(limits, budgetService, jointService), ctx, count, calls, headers };
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
});
