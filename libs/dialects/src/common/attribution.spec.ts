import type { DialectId } from '@rosetta/canonical';
import { GatewayError } from '@rosetta/canonical';
import { dialect } from '@rosetta/protocols/dialects';
import { attributionOf } from './attribution';

type Headers = Record<string, string | string[] | undefined>;

const MESSAGE = [{ role: 'user', content: 'hi' }];

/** Each dialect's body with the end user and tags where that dialect carries them. */
const BODIES: Record<DialectId, (user: unknown, tags?: unknown) => Record<string, unknown>> = {
  openai: (user, tags) => ({ model: 'rosetta/auto', messages: MESSAGE, user, ...(tags === undefined ? {} : { metadata: { tags } }) }),
  anthropic: (user, tags) => ({ model: 'rosetta/auto', max_tokens: 10, messages: MESSAGE, metadata: { user_id: user, ...(tags === undefined ? {} : { tags }) } }),
  gemini: (user) => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], labels: { user } }),
  'openai-responses': (user, tags) => ({ model: 'rosetta/auto', input: 'hi', user, ...(tags === undefined ? {} : { metadata: { tags, source: 'web' } }) }),
};

function decoded(id: DialectId, body: Record<string, unknown>) {
  return dialect(id).decodeChat({ body, query: {}, headers: {}, requestId: 'req_attribution', model: 'rosetta/auto', defaultModel: 'rosetta/auto' }).request;
}

function attributed(id: DialectId, body: Record<string, unknown>, headers: Headers = {}) {
  return attributionOf(headers, decoded(id, body));
}

function refusal(run: () => unknown): { status: number; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('attribution from each dialect', () => {
  it.each(['openai', 'anthropic', 'openai-responses'] as const)('%s: the end user and metadata.tags from the body', (id) => {
    expect(attributed(id, BODIES[id]('alice', ['team:search', 'env=prod']))).toEqual({ endUser: 'alice', tags: ['team:search', 'env=prod'] });
  });

  it('gemini: labels.user, top level or in the SDK config object; tags only by header', () => {
    expect(attributed('gemini', BODIES.gemini('bob'))).toEqual({ endUser: 'bob' });
    const inConfig = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { labels: { user: 'carol' } } };
    expect(attributed('gemini', inConfig, { 'x-rosetta-tags': 'g1,g2' })).toEqual({ endUser: 'carol', tags: ['g1', 'g2'] });
  });

  it('openai: safety_identifier wins over user; responses likewise', () => {
    expect(attributed('openai', { ...BODIES.openai('old'), safety_identifier: 'new' })).toEqual({ endUser: 'new' });
    expect(attributed('openai-responses', { ...BODIES['openai-responses']('old'), safety_identifier: 'new' })).toEqual({ endUser: 'new' });
  });

  it('openai embeddings: user', () => {
    const { request } = dialect('openai').decodeEmbed!({ body: { model: 'rosetta/text-embedding-3-small', input: 'x', user: 'dave' }, query: {}, headers: {}, requestId: 'req_e' });
    expect(attributionOf({ 'x-rosetta-tags': 'batch' }, request)).toEqual({ endUser: 'dave', tags: ['batch'] });
  });

  it('the headers win over the body', () => {
    const headers = { 'x-rosetta-end-user': ' proxy-user ', 'x-rosetta-tags': 'from-header' };
    for (const id of ['openai', 'anthropic', 'openai-responses'] as const) {
      expect(attributed(id, BODIES[id]('body-user', ['from-body']), headers)).toEqual({ endUser: 'proxy-user', tags: ['from-header'] });
    }
    expect(attributed('gemini', BODIES.gemini('body-user'), headers)).toEqual({ endUser: 'proxy-user', tags: ['from-header'] });
  });

  it('none anywhere: nothing attributed', () => {
    expect(attributed('openai', { model: 'rosetta/auto', messages: MESSAGE })).toEqual({});
    expect(attributed('openai', { model: 'rosetta/auto', messages: MESSAGE }, { 'x-rosetta-end-user': '  ', 'x-rosetta-tags': ' , ' })).toEqual({});
  });
});

describe('bad attribution is a 400 naming the field or header', () => {
  it.each([
    ['openai', 'user'],
    ['anthropic', 'metadata.user_id'],
    ['gemini', 'labels.user'],
    ['openai-responses', 'user'],
  ] as const)('%s: a bad end user names %s', (id, param) => {
    for (const bad of ['x'.repeat(300), 'a\u0007b', 42, ['a']]) {
      const refused = refusal(() => decoded(id, BODIES[id](bad)));
      expect({ status: refused.status, param: refused.param }).toEqual({ status: 400, param });
    }
  });

  it.each(['openai', 'anthropic', 'openai-responses'] as const)('%s: bad metadata.tags name the field', (id) => {
    for (const bad of [42, [1], ['with space'], Array.from({ length: 17 }, (_, i) => `t${i}`)]) {
      const refused = refusal(() => decoded(id, BODIES[id]('u', bad)));
      expect({ status: refused.status, param: refused.param?.replace(/\[\d+\]$/, '') }).toEqual({ status: 400, param: 'metadata.tags' });
    }
  });

  it('responses: other metadata values must still be strings', () => {
    expect(refusal(() => decoded('openai-responses', { model: 'm', input: 'hi', metadata: { n: 1 } })).param).toBe('metadata.n');
  });

  it('headers: non-ASCII, control characters, overlong values and bad tags', () => {
    const body = decoded('openai', BODIES.openai(undefined));
    expect(refusal(() => attributionOf({ 'x-rosetta-end-user': 'jos\u00e9' }, body))).toEqual({
      status: 400,
      param: 'x-rosetta-end-user',
      message: "Invalid 'x-rosetta-end-user' header: must be visible ASCII (send other characters in the body field: user, metadata.user_id or labels.user)",
    });
    expect(refusal(() => attributionOf({ 'x-rosetta-end-user': 'a\tb' }, body)).param).toBe('x-rosetta-end-user');
    expect(refusal(() => attributionOf({ 'x-rosetta-end-user': 'x'.repeat(257) }, body))).toEqual({
      status: 400,
      param: 'x-rosetta-end-user',
      message: "Invalid 'x-rosetta-end-user' header: must be at most 256 characters, got 257",
    });
    expect(refusal(() => attributionOf({ 'x-rosetta-tags': 'ok,not ok' }, body))).toEqual({
      status: 400,
      param: 'x-rosetta-tags',
      message: "Invalid 'x-rosetta-tags' header: must hold at most 16 tags of 1 to 64 characters each (letters, digits and _ - . : / = @ +); 'not ok' is not one",
    });
    expect(refusal(() => attributionOf({ 'x-rosetta-tags': 'a'.repeat(100_000) }, body)).param).toBe('x-rosetta-tags');
  });
});
