import { GatewayError, type CanonicalRequest, type StreamEvent } from '@rosetta/canonical';
import type { ApiKeyRecord } from '@rosetta/auth';
import { estimatePromptTokens, type BudgetHold } from '@rosetta/limits';
import { toUsageRow, UsageDraft, type UsageRecorderService } from '@rosetta/usage';
import type { Admission, AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
import { ChatService } from './chat.service';
import { ClientAbortedError, type ExecutorService } from './executor.service';
import type { MixtureService } from './mixture.service';
import type { CallContext } from './outcome';
import type { RoutingService } from './routing.service';
import type { ResponseCachingService } from './response-caching.service';
import type { GuardrailService } from './guardrails/guardrail.service';

/** A budget hold that remembers how it was settled. */
function hold(): BudgetHold & { settled: number[] } {
  const settled: number[] = [];
  return { settled, capUsd: Infinity, ref: { counters: [], holdId: 'hold-1', amount: 0 }, settle: (cost) => settled.push(cost) };
}

/** The response cache off, as it is for a key whose plan has none. */
const noCache = { prepare: (request: CanonicalRequest) => ({ request }) } as unknown as ResponseCachingService;

/** No guardrails at any level of the key. */
const noGuardrails = { policyFor: () => undefined } as unknown as GuardrailService;

/**
 * ChatService with its collaborators reduced to what the budget-hold bookkeeping touches:
 * admission resolves when the test says so, the executor refuses once the client is gone (as
 * the real one does before any upstream call), and the recorder prices every row at `cost`.
 */
function setup(cost: number) {
  let admit!: (admission: Admission) => void;
  const unheld: Array<[string, number, string | undefined]> = [];
  const admission = {
    admit: () => new Promise<Admission>((resolve) => (admit = resolve)),
    chargeUnheld: (key: ApiKeyRecord, usd: number, endUser?: string) => unheld.push([key.id, usd, endUser]),
  } as unknown as AdmissionService;
  const plan: RoutePlan = { attempts: [], route: 'r' } as unknown as RoutePlan;
  const routing = { isAuto: () => false, plan: () => plan } as unknown as RoutingService;
  const executor = {
    complete: async (_plan: RoutePlan, _request: CanonicalRequest, ctx: CallContext) => {
      if (ctx.signal.aborted) throw new ClientAbortedError();
      throw new Error('the client is still here: not what these tests drive');
    },
  } as unknown as ExecutorService;
  const recorder = { record: (draft: UsageDraft) => ({ requestId: draft.requestId, costUsd: cost }) } as unknown as UsageRecorderService;
  const chat = new ChatService(routing, executor, admission, recorder, {} as MixtureService, noCache, noGuardrails);
  const draft = new UsageDraft({ requestId: 'req_1', dialect: 'openai', startedAt: 0 });
  const signal = { aborted: false };
  const ctx = { requestId: 'req_1', signal, key: { id: 'k' } as ApiKeyRecord, usage: draft } as unknown as CallContext;
  const request = { model: 'rosetta/m', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } as unknown as CanonicalRequest;
  return { chat, ctx, draft, signal, request, unheld, admit: (a: Admission) => admit(a) };
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

  it("charges a guardrail model check's cost to the budgets when no hold was taken (the check blocked the request), once", () => {
    const { chat, ctx, draft, unheld } = setup(0.003);
    draft.checkCalled(0.003);
    chat.recordUsage(draft, 400, { key: ctx.key, endUser: 'eve' });
    expect(unheld).toEqual([['k', 0.003, 'eve']]);
    // A row without a check's cost and without a hold charges nothing (a key without budgets, a refusal).
    const other = setup(0);
    other.chat.recordUsage(other.draft, 402, { key: other.ctx.key });
    expect(other.unheld).toEqual([]);
  });

  it("charges a check's cost once when the client left while admission waited: the late hold then settles nothing", async () => {
    const { chat, ctx, draft, signal, request, admit, unheld } = setup(0.003);
    draft.checkCalled(0.003);
    const pending = chat.complete(request, ctx);
    signal.aborted = true;
    chat.recordUsage(draft, 499, { key: ctx.key });
    const budget = hold();
    admit({ budget });
    await expect(pending).rejects.toBeInstanceOf(ClientAbortedError);
    expect({ unheld, settled: budget.settled }).toEqual({ unheld: [['k', 0.003, undefined]], settled: [0] });
  });
});

/**
 * The chat use case end to end with every collaborator a fake that writes to one journal: plan →
 * reserve → execute → settle → record, in that order, and what each step acquired (the token
 * reservation, the budget hold) given back whichever step fails. Time is Jest's fake clock.
 */
describe('ChatService: plan → reserve → execute → settle → record', () => {
  const START = 1_800_000_000_000;
  const PRICING = { prompt: '0.000001', completion: '0.000002' };
  const USAGE = { inputTokens: 12, outputTokens: 8 };
  const PLAN = { attempts: [{ model: 'rosetta/m', key: 'acme/m', pricing: PRICING }], route: undefined } as unknown as RoutePlan;
  const META = { model: 'rosetta/m', provider: 'acme', protocol: 'openai' as const, pricing: PRICING, attempts: 1, warnings: [] };
  const request = (stream = false): CanonicalRequest => ({ model: 'rosetta/m', messages: [{ role: 'user', content: [{ type: 'text', text: 'Tell me a story about a stone.' }] }], stream, routing: {} });

  beforeEach(() => jest.useFakeTimers({ now: START }));
  afterEach(() => jest.useRealTimers());

  async function* events(list: StreamEvent[], clientLeavesAfter?: number): AsyncGenerator<StreamEvent> {
    for (const [i, event] of list.entries()) {
      if (i === clientLeavesAfter) return;
      jest.setSystemTime(START + 100 * (i + 1));
      yield event;
    }
  }

  function fakes(fail: { plan?: Error; admit?: Error; execute?: Error } = {}) {
    const journal: string[] = [];
    const routing = {
      isAuto: () => false,
      plan: (_request: CanonicalRequest, promptTokens: number) => {
        journal.push(`plan (${promptTokens} prompt tokens)`);
        if (fail.plan) throw fail.plan;
        return PLAN;
      },
    } as unknown as RoutingService;
    const reservation = { reserved: 100, state: {}, settle: async (tokens: number) => void journal.push(`settle ${tokens} tokens`) };
    const budget = { settle: (cost: number) => void journal.push(`settle $${cost.toFixed(6)}`) };
    const admission = {
      admit: async () => {
        journal.push('reserve');
        if (fail.admit) throw fail.admit;
        return { tokens: reservation, budget };
      },
    } as unknown as AdmissionService;
    const executor = {
      complete: async () => {
        journal.push('execute');
        if (fail.execute) throw fail.execute;
        return { response: { id: 'r', model: 'rosetta/m', created: 0, content: [{ type: 'text', text: 'Once…' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: { ...USAGE } }, meta: { ...META } };
      },
      stream: async () => {
        journal.push('execute');
        if (fail.execute) throw fail.execute;
        return { events: events(STREAM), meta: { ...META } };
      },
    } as unknown as ExecutorService;
    const recorder = {
      record: (draft: UsageDraft, status: number) => {
        const row = toUsageRow(draft, status);
        journal.push(`record ${status}: ${row.inputTokens}+${row.outputTokens} tokens`);
        return row;
      },
    } as unknown as UsageRecorderService;
    const mixture = { remember: () => undefined } as unknown as MixtureService;
    const chat = new ChatService(routing, executor, admission, recorder, mixture, noCache, noGuardrails);
    const draft = new UsageDraft({ requestId: 'req_1', dialect: 'openai' });
    const ctx = { requestId: 'req_1', signal: { aborted: false }, key: { id: 'k' } as ApiKeyRecord, usage: draft } as unknown as CallContext;
    return { chat, draft, ctx, journal, close: (status: number) => chat.recordUsage(draft, status) };
  }

  const STREAM: StreamEvent[] = [
    { type: 'start', id: 'up', model: 'm', created: 0 },
    { type: 'text-delta', index: 0, text: 'Once upon a time' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { ...USAGE } },
  ];
  const cost = 12 * 0.000001 + 8 * 0.000002;
  const prompt = estimatePromptTokens(request());

  it('answers, then settles the tokens to the usage and, when the row is recorded, the budget to its cost', async () => {
    const { chat, ctx, journal, draft, close } = fakes();
    const outcome = await chat.complete(request(), ctx);
    expect(outcome.response.usage).toEqual({ ...USAGE, costUsd: cost });
    expect(outcome.meta.costUsd).toBe(cost);
    close(200);
    expect(journal).toEqual([`plan (${prompt} prompt tokens)`, 'reserve', 'execute', 'settle 20 tokens', 'record 200: 12+8 tokens', `settle $${cost.toFixed(6)}`]);
    expect({ requested: draft.requestedModel, served: draft.servedModel, provider: draft.provider, usage: draft.usage }).toEqual({ requested: 'rosetta/m', served: 'rosetta/m', provider: 'acme', usage: { ...USAGE, costUsd: cost } });
  });

  it('holds nothing when planning fails', async () => {
    const { chat, ctx, journal, close } = fakes({ plan: new GatewayError('model_registry_error', "Model 'rosetta/m' not found") });
    await expect(chat.complete(request(), ctx)).rejects.toMatchObject({ status: 404 });
    close(404);
    expect(journal).toEqual([`plan (${prompt} prompt tokens)`, 'record 404: 0+0 tokens']);
  });

  it.each([false, true])('notes the model a request asked for when nobody serves it, and no model for one it could not resolve (stream: %s)', async (stream) => {
    const unserved = fakes({ plan: new GatewayError('configuration_error', "'rosetta/m' is not served by this gateway: set GROQ_API_KEY (provider 'groq')") });
    await expect(stream ? unserved.chat.stream(request(true), unserved.ctx) : unserved.chat.complete(request(), unserved.ctx)).rejects.toMatchObject({ status: 503 });
    unserved.close(503);
    expect({ requested: unserved.draft.requestedModel, streamed: unserved.draft.streamed, served: unserved.draft.servedModel, provider: unserved.draft.provider }).toEqual({ requested: 'rosetta/m', streamed: stream, served: undefined, provider: undefined });
    expect(unserved.journal).toEqual([`plan (${prompt} prompt tokens)`, 'record 503: 0+0 tokens']);

    const unknown = fakes({ plan: new GatewayError('model_registry_error', "Model 'rosetta/m' not found") });
    await expect(stream ? unknown.chat.stream(request(true), unknown.ctx) : unknown.chat.complete(request(), unknown.ctx)).rejects.toMatchObject({ status: 404 });
    expect(unknown.draft.requestedModel).toBeUndefined();
  });

  it('calls no upstream when the reservation is refused', async () => {
    const { chat, ctx, journal, close } = fakes({ admit: new GatewayError('rate_limit_error', 'Rate limit exceeded: tokens per minute', { retryAfterMs: 1_000 }) });
    await expect(chat.stream(request(true), ctx)).rejects.toMatchObject({ status: 429 });
    close(429);
    expect(journal).toEqual([`plan (${prompt} prompt tokens)`, 'reserve', 'record 429: 0+0 tokens']);
  });

  it.each([false, true])('gives back the reservation and the hold when the upstream fails (stream: %s)', async (stream) => {
    const { chat, ctx, journal, close } = fakes({ execute: new GatewayError('upstream_error', 'Upstream service error: boom', { status: 502 }) });
    await expect(stream ? chat.stream(request(true), ctx) : chat.complete(request(), ctx)).rejects.toMatchObject({ status: 502 });
    close(502);
    expect(journal).toEqual([`plan (${prompt} prompt tokens)`, 'reserve', 'execute', 'settle 0 tokens', 'record 502: 0+0 tokens', 'settle $0.000000']);
  });

  it('streams with the prompt estimate it reserved, settling when the stream ends; time to first token from the clock', async () => {
    const { chat, ctx, journal, draft, close } = fakes();
    const outcome = await chat.stream(request(true), ctx);
    expect(outcome.promptTokens).toBe(prompt);
    const seen: StreamEvent[] = [];
    for await (const event of outcome.events) seen.push(event);
    expect(seen.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { ...USAGE, costUsd: cost } });
    expect(journal.at(-1)).toBe('settle 20 tokens');
    close(200);
    expect(journal.slice(-2)).toEqual(['record 200: 12+8 tokens', `settle $${cost.toFixed(6)}`]);
    expect(draft.ttftMs).toBe(200); // the text delta, 200 ms after the start: the start event is no token
  });

  it('charges a stream the client cut for the prompt and the output relayed so far', async () => {
    const { chat, ctx, journal, close } = fakes();
    const outcome = await chat.stream(request(true), ctx);
    const iterator = outcome.events[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await iterator.return?.(undefined);
    const relayed = Math.ceil('Once upon a time'.length / 4);
    expect(journal.at(-1)).toBe(`settle ${prompt + relayed} tokens`);
    close(200);
    expect(journal.at(-2)).toBe(`record 200: ${prompt}+${relayed} tokens`);
  });
});
