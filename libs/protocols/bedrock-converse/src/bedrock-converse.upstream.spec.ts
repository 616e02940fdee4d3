import type { CanonicalRequest, StreamEvent } from '@rosetta/canonical';
import { encodeFrame, freezeNow } from './__fixtures__/load-fixture';
import { bedrockConverseUpstream } from './bedrock-converse.upstream';

const BASE = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const request: CanonicalRequest = { model: 'rosetta/x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: true, routing: {} };

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('bedrockConverseUpstream', () => {
  it('posts to the model’s converse or converse-stream path, the model id URL-encoded', () => {
    expect(bedrockConverseUpstream.url(BASE, 'anthropic.claude-3-haiku-20240307-v1:0', false)).toBe(`${BASE}/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse`);
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0';
    expect(bedrockConverseUpstream.url(BASE, arn, true)).toBe(`${BASE}/model/${encodeURIComponent(arn)}/converse-stream`);
  });

  it('sends a Bedrock API key as a bearer, and nothing without one (SigV4 is the transport’s)', () => {
    expect(bedrockConverseUpstream.headers('ABSKbedrockkey', request)).toEqual({ authorization: 'Bearer ABSKbedrockkey' });
    expect(bedrockConverseUpstream.headers('', request)).toEqual({});
  });

  it('keeps its output cap in inferenceConfig.maxTokens, and thinks within the endpoint’s limit', () => {
    expect(bedrockConverseUpstream.outputCapFields).toEqual([['inferenceConfig', 'maxTokens']]);
    const { value } = bedrockConverseUpstream.encode({ ...request, thinking: { enabled: true, budgetTokens: 2000 } }, { upstreamModel: 'anthropic.claude-sonnet-4-5-20250929-v1:0', reasoning: true, maxCompletionTokens: 4096 });
    expect(value['inferenceConfig']).toEqual({ maxTokens: 4096 });
  });

  it('reads a ConverseStream body from its bytes to canonical events', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.concat([
        encodeFrame({ event: 'messageStart', payload: { role: 'assistant' } }),
        encodeFrame({ event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hi' } } }),
        encodeFrame({ event: 'messageStop', payload: { stopReason: 'end_turn' } }),
        encodeFrame({ event: 'metadata', payload: { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } }),
      ]);
    }
    const decoder = bedrockConverseUpstream.streamDecoder();
    const events: StreamEvent[] = [];
    for await (const chunk of bedrockConverseUpstream.parseStream(body())) events.push(...decoder.push(chunk));
    events.push(...decoder.end());
    expect(events.map((event) => event.type)).toEqual(['start', 'text-start', 'text-delta', 'text-end', 'finish']);
  });
});
