import type { ApiKeyRecord } from '@rosetta/auth';
import type { CanonicalRequest, Message } from '@rosetta/canonical';
import type { RouteDecision } from '@rosetta/mixture';
import { applyAffinity } from './mixture.service';
import { SessionAffinityService, sessionId, type Stickiness } from './session-affinity.service';

const key = { id: 'key-1' } as ApiKeyRecord;
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

function request(messages: Message[], extra: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return { model: 'rosetta/auto', messages: [{ role: 'system', content: [{ type: 'text', text: 'You are terse.' }] }, ...messages], stream: false, routing: {}, ...extra };
}

function decision(chosen: string, quality: Record<string, number>): RouteDecision {
  return {
    chosen,
    mode: 'single',
    plan: [chosen],
    knob: 0.5,
    signals: [],
    candidates: Object.entries(quality).map(([id, q]) => ({ id, quality: q, costUsd: 0.001, score: q, basis: 'profile' as const })),
    reasons: ['router reason'],
    scoring: 'capable',
  };
}

describe('sessionId', () => {
  it('is the same for every turn of one conversation and differs by key and by conversation', () => {
    const first = request([user('Plan a trip to Lisbon')]);
    const third = request([user('Plan a trip to Lisbon'), assistant('Sure.'), user('Make it three days')]);
    expect(sessionId(third, key.id)).toBe(sessionId(first, key.id));
    expect(sessionId(first, 'key-2')).not.toBe(sessionId(first, key.id));
    expect(sessionId(request([user('Plan a trip to Porto')]), key.id)).not.toBe(sessionId(first, key.id));
  });

  it("prefers the caller's own session id (Claude Code's metadata.user_id, prompt_cache_key) over the opening", () => {
    const a = request([user('one')], { user: 'user_x_account__session_1' });
    const b = request([user('two')], { user: 'user_x_account__session_1' });
    expect(sessionId(a, key.id)).toBe(sessionId(b, key.id));
    const cached = request([user('one')], { promptCacheKey: 'conv-9' });
    expect(sessionId(cached, key.id)).not.toBe(sessionId(request([user('one')]), key.id));
  });
});

describe('applyAffinity', () => {
  const sticky = (model?: string, toolLoop = false): Stickiness => ({ session: 's', model, toolLoop });

  it('leaves a new session to the router', () => {
    expect(applyAffinity(decision('rosetta/a', { 'rosetta/a': 0.8 }), sticky())).toMatchObject({ affinity: 'new', decision: { chosen: 'rosetta/a' } });
  });

  it('keeps a session on its model when the router would move sideways or down', () => {
    const result = applyAffinity(decision('rosetta/cheap', { 'rosetta/cheap': 0.7, 'rosetta/mid': 0.72 }), sticky('rosetta/mid'));
    expect(result.affinity).toBe('kept');
    expect(result.decision).toMatchObject({ chosen: 'rosetta/mid', mode: 'single', plan: ['rosetta/mid'] });
    expect(result.decision.reasons[0]).toMatch(/^session affinity: staying on rosetta\/mid/);
  });

  it('escalates to a clearly stronger model, but never mid tool loop', () => {
    const stronger = decision('rosetta/strong', { 'rosetta/cheap': 0.6, 'rosetta/strong': 0.9 });
    expect(applyAffinity(stronger, sticky('rosetta/cheap')).affinity).toBe('escalated');
    const loop = applyAffinity(stronger, sticky('rosetta/cheap', true));
    expect(loop).toMatchObject({ affinity: 'kept', decision: { chosen: 'rosetta/cheap' } });
    expect(loop.decision.reasons[0]).toMatch(/mid tool loop/);
  });

  it('lets go of a model that is no longer eligible', () => {
    expect(applyAffinity(decision('rosetta/a', { 'rosetta/a': 0.8 }), sticky('rosetta/gone'))).toMatchObject({ affinity: 'lost', decision: { chosen: 'rosetta/a' } });
  });
});

describe('SessionAffinityService (in process)', () => {
  it('remembers the model a session was served by and sees a tool loop', async () => {
    const affinity = new SessionAffinityService(null);
    const turn = request([user('Refactor the parser')]);
    const first = await affinity.lookup(turn, key);
    expect(first).toMatchObject({ model: undefined, toolLoop: false });
    affinity.remember(first, 'rosetta/claude-sonnet-4-5');
    const toolTurn = request([
      user('Refactor the parser'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'read', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'file' }] }] },
    ]);
    expect(await affinity.lookup(toolTurn, key)).toMatchObject({ model: 'rosetta/claude-sonnet-4-5', toolLoop: true });
    expect(await affinity.lookup(turn, undefined)).toBeUndefined();
  });
});
