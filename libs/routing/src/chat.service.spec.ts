import type { CanonicalRequest } from '@rosetta/canonical';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { BudgetHold } from '@rosetta/limits';
import { UsageDraft, type UsageRecorderService } from '@rosetta/usage';
import type { Admission, AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
import { ChatService } from './chat.service';
import { ClientAbortedError, type ExecutorService } from './executor.service';
import type { MixtureService } from './mixture.service';
import type { CallContext } from './outcome';
import type { RoutingService } from './routing.service';

/** A budget hold that remembers how it was settled. */
function hold(): BudgetHold & { settled: number[] } {
  const settled: number[] = [];
  return { settled, settle: (cost) => settled.push(cost) };
}

/**
 * ChatService with its collaborators reduced to what the budget-hold bookkeeping touches:
 * admission resolves when the test says so, the executor refuses once the client is gone (as
 * the real one does before any upstream call), and the recorder prices every row at `cost`.
 */
function setup(cost: number) {
  let admit!: (admission: Admission) => void;
  const admission = { admit: () => new Promise<Admission>((resolve) => (admit = resolve)) } as unknown as AdmissionService;
  const plan: RoutePlan = { attempts: [], route: 'r' } as unknown as RoutePlan;
  const routing = { isAuto: () => false, plan: () => plan } as unknown as RoutingService;
  const executor = {
    complete: async (_plan: RoutePlan, _request: CanonicalRequest, ctx: CallContext) => {
      if (ctx.signal.aborted) throw new ClientAbortedError();
      throw new Error('the client is still here: not what these tests drive');
    },
  } as unknown as ExecutorService;
  const recorder = { record: (draft: UsageDraft) => ({ requestId: draft.requestId, costUsd: cost }) } as unknown as UsageRecorderService;
  const chat = new ChatService(routing, executor, admission, recorder, {} as MixtureService);
  const draft = new UsageDraft({ requestId: 'req_1', dialect: 'openai', startedAt: 0 });
  const signal = { aborted: false };
  const ctx = { requestId: 'req_1', signal, key: { id: 'k' } as ApiKeyRecord, usage: draft } as unknown as CallContext;
  const request = { model: 'rosetta/m', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } as unknown as CanonicalRequest;
  return { chat, ctx, draft, signal, request, admit: (a: Admission) => admit(a) };
}

describe('ChatService budget holds', () => {
  it('settles a hold at once when the client left (and its row was recorded) while admission waited', async () => {
    const { chat, ctx, draft, signal, request, admit } = setup(0);
    const pending = chat.complete(request, ctx);
    // The client disconnects during admission: its response closes and its row is recorded.
    signal.aborted = true;
    chat.recordUsage(draft, 499);
    const budget = hold();
    admit({ budget });
    await expect(pending).rejects.toBeInstanceOf(ClientAbortedError);
    expect(budget.settled).toEqual([0]);
    // A second close does not settle it again.
    chat.recordUsage(draft, 499);
    expect(budget.settled).toEqual([0]);
  });

  it('keeps the hold until the row is recorded, then settles it to the row\'s cost, once', async () => {
    const { chat, ctx, draft, signal, request, admit } = setup(0.25);
    const pending = chat.complete(request, ctx);
    const budget = hold();
    admit({ budget });
    signal.aborted = true;
    await expect(pending).rejects.toBeInstanceOf(ClientAbortedError);
    expect(budget.settled).toEqual([]);
    chat.recordUsage(draft, 499);
    expect(budget.settled).toEqual([0.25]);
  });
});
