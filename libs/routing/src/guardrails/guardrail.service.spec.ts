import type { ApiKeyRecord, TeamCacheService } from '@rosetta/auth';
import { GatewayError, type CanonicalRequest, type CanonicalResponse, type StreamEvent } from '@rosetta/canonical';
import { parseGuardrailPolicy, type ExternalCheckResult, type ExternalCheckRunner, type GuardrailCheck } from '@rosetta/guardrails';
import type { PlanCacheService } from '@rosetta/limits';
import { AbortLine } from '@rosetta/providers';
import { UsageDraft } from '@rosetta/usage';
import type { AdmissionService } from '../admission.service';
import type { CallContext, CompletionOutcome } from '../outcome';
import type { GuardrailBlockedEvent } from './guardrail-block-listener';
import { GuardrailService } from './guardrail.service';

function policy(input: unknown): GuardrailCheck[] {
  const parsed = parseGuardrailPolicy(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.checks;
}

/** A service over in-memory plan and team records, a runner that answers as told, and a counting admission. */
function setup(levels: { key?: unknown; team?: unknown; plan?: unknown }, verdicts: ExternalCheckResult[] = []) {
  const plans = { get: () => ({ name: 'pro', guardrails: levels.plan ? policy(levels.plan) : null }) } as unknown as PlanCacheService;
  const teamRecord = { id: 't1', guardrails: levels.team ? policy(levels.team) : null };
  const teams = { get: (id: string) => (id === 't1' ? teamRecord : undefined) } as unknown as TeamCacheService;
  const counted: string[] = [];
  const admission = { countOnly: async (ctx: CallContext) => void counted.push(ctx.requestId) } as unknown as AdmissionService;
  const sent: Array<{ text: string; stage: string }> = [];
  const runner: ExternalCheckRunner = {
    run: async (_check, text, stage) => {
      sent.push({ text, stage });
      return verdicts.shift() ?? { verdict: { action: 'allow' } };
    },
  };
  const blocks: GuardrailBlockedEvent[] = [];
  const service = new GuardrailService(plans, teams, admission, runner, (event) => blocks.push(event));
  const key = { id: 'k1', plan: 'pro', teamId: 't1', guardrails: levels.key ? policy(levels.key) : null } as unknown as ApiKeyRecord;
  const draft = new UsageDraft({ requestId: 'req_1', dialect: 'openai', startedAt: 0 });
  const fills: Array<() => void> = [];
  const ctx = { requestId: 'req_1', signal: new AbortLine(), key, usage: draft, beforeRecord: (fill: () => void) => fills.push(fill) } as unknown as CallContext;
  return { service, ctx, draft, counted, sent, blocks, effective: service.policyFor(ctx)!, fills };
}

function request(...texts: string[]): CanonicalRequest {
  return {
    model: 'rosetta/m',
    stream: false,
    routing: {},
    messages: [
      { role: 'system', content: [{ type: 'text', text: texts[0]! }] },
      { role: 'user', content: [{ type: 'text', text: texts[1]! }, { type: 'image', source: { kind: 'url', url: 'https://img.example/a.png' } }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: texts[2] ?? 'ok' }] }] },
    ],
    passthrough: { protocol: 'openai', body: { messages: [] } },
  } as unknown as CanonicalRequest;
}

const PII_REDACT = [{ check: 'pii', on: 'both', action: 'redact', kinds: ['email'] }];

describe('GuardrailService: the effective policy', () => {
  it('is nothing for a key without checks at any level', () => {
    expect(setup({}).effective).toBeUndefined();
  });

  it("joins the key's, its team's and its plan's checks", () => {
    const { effective } = setup({ key: PII_REDACT, team: [{ check: 'secrets', on: 'input', action: 'block' }], plan: [{ check: 'pii', on: 'output', action: 'log' }] });
    expect(effective.origins.map((o) => o.source)).toEqual(['key', 'team', 'plan']);
  });
});

describe('GuardrailService: the input stage', () => {
  it('redacts the system prompt, user text and tool results, and drops the client body that still holds them', async () => {
    const { service, ctx, effective, draft } = setup({ key: PII_REDACT });
    const checked = await service.admitInput(request('Contact ops@corp.example', 'I am jane@corp.example', 'owner: bob@corp.example'), ctx, effective);
    expect(checked.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Contact [REDACTED:email]' }] },
      { role: 'user', content: [{ type: 'text', text: 'I am [REDACTED:email]' }, { type: 'image', source: { kind: 'url', url: 'https://img.example/a.png' } }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'owner: [REDACTED:email]' }] }] },
    ]);
    expect(checked.passthrough).toBeUndefined();
    expect(draft.guardrails).toEqual([{ check: 'pii', source: 'key', index: 0, stage: 'input', action: 'redact', kinds: ['email'] }]);
  });

  it('leaves a clean request as it is (the same object)', async () => {
    const { service, ctx, effective, draft } = setup({ key: PII_REDACT });
    const clean = request('Be brief.', 'Hello there');
    expect(await service.admitInput(clean, ctx, effective)).toBe(clean);
    expect(draft.guardrails).toBeUndefined();
  });

  it('blocks with a 400 naming the check, counts the request, records the verdict and tells the listeners', async () => {
    const { service, ctx, effective, draft, counted, blocks } = setup({ team: [{ check: 'secrets', on: 'input', action: 'block' }] });
    const error = await service.admitInput(request('sys', 'my key is sk-proj-abcdefghijklmnopqrstuvwx'), ctx, effective).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect({ type: (error as GatewayError).type, status: (error as GatewayError).status, message: (error as GatewayError).message }).toEqual({
      type: 'guardrail_violation',
      status: 400,
      message: "Blocked by the team's guardrail 0 (secrets: openai_key) on input.",
    });
    expect((error as Error).message).not.toContain('sk-proj');
    expect(counted).toEqual(['req_1']);
    expect(draft.requestedModel).toBe('rosetta/m');
    const verdict = { check: 'secrets', source: 'team', index: 0, stage: 'input', action: 'block', kinds: ['openai_key'] };
    expect(draft.guardrails).toEqual([verdict]);
    expect(blocks).toEqual([{ requestId: 'req_1', keyId: 'k1', teamId: 't1', verdict }]);
  });
});

describe('GuardrailService: external checks', () => {
  const webhook = (fail: 'open' | 'closed', action = 'block') => [{ check: 'webhook', on: 'input', action, url: 'https://dlp.example/check', fail }];

  it('run after the built-in checks, on the text they left', async () => {
    const { service, ctx, effective, sent } = setup({ key: [...PII_REDACT, ...webhook('closed')] });
    await service.admitInput(request('sys', 'I am jane@corp.example'), ctx, effective);
    expect(sent).toEqual([{ text: 'sys\nI am [REDACTED:email]\nok', stage: 'input' }]);
  });

  it('apply a redact verdict by its spans', async () => {
    const { service, ctx, effective, draft } = setup({ plan: webhook('closed', 'redact') }, [{ verdict: { action: 'redact', spans: [{ start: 4, end: 11, kind: 'name' }] } }]);
    const checked = await service.admitInput(request('sys', 'Dr. Watson here'), ctx, effective);
    expect(checked.messages[1]!.content[0]).toEqual({ type: 'text', text: '[REDACTED:name]son here' });
    expect(draft.guardrails).toEqual([{ check: 'webhook', source: 'plan', index: 0, stage: 'input', action: 'redact', kinds: ['name'] }]);
  });

  it('that cannot decide follow their fail choice: open lets the request on, closed blocks it', async () => {
    const down: ExternalCheckResult = { verdict: { action: 'unavailable', reason: 'timeout' } };
    const open = setup({ key: webhook('open') }, [down]);
    const clean = request('sys', 'hello');
    expect(await open.service.admitInput(clean, open.ctx, open.effective)).toBe(clean);
    expect(open.draft.guardrails).toEqual([{ check: 'webhook', source: 'key', index: 0, stage: 'input', action: 'log', kinds: [], unavailable: 'timeout' }]);
    const closed = setup({ key: webhook('closed') }, [down]);
    await expect(closed.service.admitInput(clean, closed.ctx, closed.effective)).rejects.toThrow("Blocked by the key's guardrail 0 (webhook: unavailable: timeout) on input.");
  });

  it('with action log only record what they said', async () => {
    const { service, ctx, effective, draft } = setup({ key: webhook('closed', 'log') }, [{ verdict: { action: 'block', kinds: ['toxic'] } }]);
    const clean = request('sys', 'hello');
    expect(await service.admitInput(clean, ctx, effective)).toBe(clean);
    expect(draft.guardrails).toEqual([{ check: 'webhook', source: 'key', index: 0, stage: 'input', action: 'log', kinds: ['toxic'] }]);
  });

  it("charge a model check's call with the request", async () => {
    const call = { model: 'rosetta/guard', provider: 'sim', inputTokens: 10, outputTokens: 1, costUsd: 0.00002 };
    const { service, ctx, effective, draft } = setup({ key: [{ check: 'model', on: 'input', action: 'block', model: 'rosetta/guard' }] }, [{ verdict: { action: 'allow' }, call }]);
    await service.admitInput(request('sys', 'hello'), ctx, effective);
    expect(draft.checkCostUsd).toBe(0.00002);
  });
});

function answer(text: string): CompletionOutcome {
  const response: CanonicalResponse = { id: 'r', model: 'rosetta/m', created: 0, finishReason: { unified: 'stop' }, content: [{ type: 'text', text }] };
  return { response, meta: { model: 'rosetta/m', provider: 'sim', protocol: 'openai', attempts: 1, warnings: [] } } as CompletionOutcome;
}

describe('GuardrailService: the output stage', () => {
  it('redacts a whole answer, and blocks one with a 400', async () => {
    const redact = setup({ key: PII_REDACT });
    const checked = await redact.service.admitAnswer(answer('Write to jane@corp.example.'), redact.ctx, redact.effective);
    expect(checked.response.content).toEqual([{ type: 'text', text: 'Write to [REDACTED:email].' }]);
    const block = setup({ plan: [{ check: 'pii', on: 'output', action: 'block' }] });
    await expect(block.service.admitAnswer(answer('call +1 415 555 0100'), block.ctx, block.effective)).rejects.toThrow("Blocked by the plan's guardrail 0 (pii: phone) on output.");
  });

  async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
    const seen: StreamEvent[] = [];
    for await (const event of events) seen.push(event);
    return seen;
  }

  async function* stream(deltas: string[]): AsyncGenerator<StreamEvent> {
    yield { type: 'start', id: 's', model: 'rosetta/m', created: 0 };
    yield { type: 'text-start', index: 0 };
    for (const text of deltas) yield { type: 'text-delta', index: 0, text };
    yield { type: 'text-end', index: 0 };
    yield { type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: 5, outputTokens: 9 } };
  }

  const textOf = (events: StreamEvent[]): string => events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

  it('redacts a streamed answer however it is chunked, and records its verdicts once', async () => {
    const { service, ctx, effective, draft, fills } = setup({ key: PII_REDACT });
    const events = await collect(service.guardStream(stream(['Mail ja', 'ne@co', 'rp.exa', 'mple or bob', '@corp.example', ' today.']), ctx, effective));
    expect(textOf(events)).toBe('Mail [REDACTED:email] or [REDACTED:email] today.');
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: 5, outputTokens: 9 } });
    expect(draft.guardrails).toEqual([{ check: 'pii', source: 'key', index: 0, stage: 'output', action: 'redact', kinds: ['email'] }]);
    fills.forEach((fill) => fill());
    expect(draft.guardrails).toHaveLength(1);
  });

  it('ends a stream with the in-stream error at the first violation, having sent none of it', async () => {
    const { service, ctx, effective, draft } = setup({ key: [{ check: 'secrets', on: 'output', action: 'block' }] });
    const prose = 'Here is a long and harmless sentence that goes on for a while before anything happens. ';
    const events = await collect(service.guardStream(stream([prose, 'The key: sk-proj-abcdefghij', 'klmnopqrstuvwx and more text', ' after it.']), ctx, effective));
    expect(textOf(events)).not.toContain('sk-proj');
    expect(`${prose}The key: `.startsWith(textOf(events))).toBe(true);
    const last = events.at(-1)!;
    expect(last.type === 'error' && { type: last.error.type, message: last.error.message }).toEqual({ type: 'guardrail_violation', message: "Blocked by the key's guardrail 0 (secrets: openai_key) on output." });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(draft.guardrails).toEqual([{ check: 'secrets', source: 'key', index: 0, stage: 'output', action: 'block', kinds: ['openai_key'] }]);
  });

  it('runs external output checks on the whole streamed answer and replaces the finish when they block', async () => {
    const { service, ctx, effective, sent, draft } = setup({ key: [{ check: 'webhook', on: 'output', action: 'block', url: 'https://dlp.example/x' }] }, [{ verdict: { action: 'block', kinds: ['toxic'] } }]);
    const events = await collect(service.guardStream(stream(['Hello ', 'world']), ctx, effective));
    expect(sent).toEqual([{ text: 'Hello world', stage: 'output' }]);
    expect(events.map((e) => e.type)).toEqual(['start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'error']);
    expect(draft.usage).toEqual({ inputTokens: 5, outputTokens: 9 });
  });

  const signature = { protocol: 'anthropic' as const, value: 'sig-1' };

  function toolAnswer(): CompletionOutcome {
    const outcome = answer('Sending it now.');
    outcome.response.content = [
      { type: 'thinking', text: 'The user is jane@corp.example, so I mail her.', signature },
      { type: 'thinking', text: 'Nothing to hide here.', signature },
      outcome.response.content[0]!,
      { type: 'tool_call', id: 'c1', name: 'send_mail', arguments: '{"to": "jane\\u0040corp.example", "cc": ["ops@corp.example", "team"], "n": 4111111111111111}' },
      { type: 'tool_call', id: 'c2', name: 'noop', arguments: '{"path": "C:\\\\tmp\\/x"}' },
    ];
    return outcome;
  }

  it("redacts a whole answer's thinking and tool-call arguments (valid JSON), dropping a redacted thinking's signature", async () => {
    const { service, ctx, effective, draft } = setup({ key: [{ check: 'pii', on: 'output', action: 'redact' }] });
    const original = toolAnswer();
    const checked = await service.admitAnswer(original, ctx, effective);
    expect(checked.response.content).toEqual([
      { type: 'thinking', text: 'The user is [REDACTED:email], so I mail her.' },
      { type: 'thinking', text: 'Nothing to hide here.', signature },
      { type: 'text', text: 'Sending it now.' },
      { type: 'tool_call', id: 'c1', name: 'send_mail', arguments: '{"to": "[REDACTED:email]", "cc": ["[REDACTED:email]", "team"], "n": "[REDACTED:card]"}' },
      // Untouched arguments keep their bytes, escapes and all.
      original.response.content[4],
    ]);
    expect(JSON.parse((checked.response.content[3] as { arguments: string }).arguments)).toEqual({ to: '[REDACTED:email]', cc: ['[REDACTED:email]', 'team'], n: '[REDACTED:card]' });
    expect(draft.guardrails).toEqual([{ check: 'pii', source: 'key', index: 0, stage: 'output', action: 'redact', kinds: ['card', 'email'] }]);
  });

  it('blocks a whole answer for what its tool-call arguments hold, like text', async () => {
    const { service, ctx, effective, draft } = setup({ team: [{ check: 'secrets', on: 'output', action: 'block' }] });
    const outcome = answer('Running it.');
    outcome.response.content.push({ type: 'tool_call', id: 'c1', name: 'shell', arguments: '{"cmd": "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx"}' });
    await expect(service.admitAnswer(outcome, ctx, effective)).rejects.toThrow("Blocked by the team's guardrail 0 (secrets: openai_key) on output.");
    expect(draft.guardrails).toEqual([{ check: 'secrets', source: 'team', index: 0, stage: 'output', action: 'block', kinds: ['openai_key'] }]);
  });

  async function* toolStream(argumentDeltas: string[], thinking: string[] = []): AsyncGenerator<StreamEvent> {
    yield { type: 'start', id: 's', model: 'rosetta/m', created: 0 };
    yield { type: 'thinking-start', index: 0 };
    for (const text of thinking) yield { type: 'thinking-delta', index: 0, text };
    yield { type: 'thinking-end', index: 0, signature };
    yield { type: 'tool-call-start', index: 1, id: 'c1', name: 'send_mail' };
    for (const argumentsDelta of argumentDeltas) yield { type: 'tool-call-delta', index: 1, argumentsDelta };
    yield { type: 'tool-call-end', index: 1 };
    yield { type: 'finish', finishReason: { unified: 'tool_calls' }, usage: { inputTokens: 5, outputTokens: 9 } };
  }

  const argumentsOf = (events: StreamEvent[]): string => events.map((e) => (e.type === 'tool-call-delta' ? e.argumentsDelta : '')).join('');
  const thinkingOf = (events: StreamEvent[]): string => events.map((e) => (e.type === 'thinking-delta' ? e.text : '')).join('');

  it("redacts a stream's thinking and tool-call arguments as they stream (valid JSON), and drops a redacted thinking's signature", async () => {
    const { service, ctx, effective, draft } = setup({ key: [{ check: 'pii', on: 'output', action: 'redact' }] });
    const events = await collect(service.guardStream(toolStream(['{"to": "ja', 'ne@corp.exa', 'mple", "body": "call +1 415', ' 555 2671"}'], ['Mail ja', 'ne@corp.example now.']), ctx, effective));
    expect(JSON.parse(argumentsOf(events))).toEqual({ to: '[REDACTED:email]', body: 'call [REDACTED:phone]' });
    expect(thinkingOf(events)).toBe('Mail [REDACTED:email] now.');
    expect(events.find((e) => e.type === 'thinking-end')).toEqual({ type: 'thinking-end', index: 0 });
    expect(draft.guardrails).toEqual([{ check: 'pii', source: 'key', index: 0, stage: 'output', action: 'redact', kinds: ['email', 'phone'] }]);
    // Nothing found: the same text and arguments (however held back), the signature kept.
    const clean = setup({ key: [{ check: 'pii', on: 'output', action: 'redact' }] });
    const passed = await collect(clean.service.guardStream(toolStream(['{"to": "team"}'], ['Plain thoughts.']), clean.ctx, clean.effective));
    expect([thinkingOf(passed), argumentsOf(passed)]).toEqual(['Plain thoughts.', '{"to": "team"}']);
    expect(passed.find((e) => e.type === 'thinking-end')).toEqual({ type: 'thinking-end', index: 0, signature });
  });

  it('ends a stream with the in-stream error when tool-call arguments hold a blocked secret, having sent none of it', async () => {
    const { service, ctx, effective, draft } = setup({ key: [{ check: 'secrets', on: 'output', action: 'block' }] });
    const events = await collect(service.guardStream(toolStream(['{"cmd": "export KEY=sk-proj-abcdefghij', 'klmnopqrstuvwx", "x": 1}']), ctx, effective));
    expect(argumentsOf(events)).not.toContain('sk-proj');
    const last = events.at(-1)!;
    expect(last.type === 'error' && last.error.message).toBe("Blocked by the key's guardrail 0 (secrets: openai_key) on output.");
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(draft.guardrails).toEqual([{ check: 'secrets', source: 'key', index: 0, stage: 'output', action: 'block', kinds: ['openai_key'] }]);
  });

  it("applies a webhook's redact spans inside tool-call arguments, keeping them valid JSON", async () => {
    const { service, ctx, effective, sent } = setup({ key: [{ check: 'webhook', on: 'output', action: 'redact', url: 'https://dlp.example/x' }] }, [
      { verdict: { action: 'redact', spans: [{ start: 6, end: 17, kind: 'name' }] } },
    ]);
    const outcome = answer('Hi');
    outcome.response.content.push({ type: 'tool_call', id: 'c1', name: 'greet', arguments: '{"to":"Alice Smith"}' });
    const checked = await service.admitAnswer(outcome, ctx, effective);
    expect(sent).toEqual([{ text: 'Hi\nto\nAlice Smith', stage: 'output' }]);
    expect(checked.response.content[1]).toEqual({ type: 'tool_call', id: 'c1', name: 'greet', arguments: '{"to":"[REDACTED:name]"}' });
  });

  it('redacts a refusal, whole and streamed (its deltas have no start or end: the finish closes it)', async () => {
    const { service, ctx, effective } = setup({ key: PII_REDACT });
    const outcome = answer('');
    outcome.response.content = [{ type: 'refusal', text: 'I will not mail jane@corp.example.' }];
    expect((await service.admitAnswer(outcome, ctx, effective)).response.content).toEqual([{ type: 'refusal', text: 'I will not mail [REDACTED:email].' }]);
    async function* refusing(): AsyncGenerator<StreamEvent> {
      yield { type: 'refusal-delta', index: 0, text: 'I will not mail ja' };
      yield { type: 'refusal-delta', index: 0, text: 'ne@corp.example.' };
      yield { type: 'finish', finishReason: { unified: 'content_filter' } };
    }
    const events = await collect(service.guardStream(refusing(), ctx, effective));
    expect(events.at(-1)?.type).toBe('finish');
    const refused = events.slice(0, -1);
    expect(refused.every((e) => e.type === 'refusal-delta' && e.index === 0)).toBe(true);
    expect(refused.map((e) => (e.type === 'refusal-delta' ? e.text : '')).join('')).toBe('I will not mail [REDACTED:email].');
  });

  it('gives external output checks the thinking and the arguments too, piece by piece', async () => {
    const { service, ctx, effective, sent } = setup({ key: [{ check: 'webhook', on: 'output', action: 'log', url: 'https://dlp.example/x' }] });
    await collect(service.guardStream(toolStream(['{"to": "te', 'am", "n": 3}'], ['Think.']), ctx, effective));
    expect(sent).toEqual([{ text: 'Think.\nto\nteam\nn\n3', stage: 'output' }]);
  });
});
