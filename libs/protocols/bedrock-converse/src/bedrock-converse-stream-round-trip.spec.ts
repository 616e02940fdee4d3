/**
 * ConverseStream bytes → parse → decode: the parts must be the ones the non-streamed Converse
 * answer decodes to. Then the answer goes to a client of another dialect (Anthropic's), comes back
 * as history on the next turn, and Bedrock must be sent its own reasoning signature exactly as it
 * gave it — while Anthropic, called with the same history, must never be sent it.
 */
import type { AssistantContentPart, CanonicalResponse, StreamEvent } from '@rosetta/canonical';
import { convertAnthropicMessagesRequest, convertToAnthropicMessagesRequest, convertToAnthropicMessagesResponse } from '@rosetta/protocols/anthropic-messages';
import { parseAwsEventStream } from '@rosetta/protocols/common';
import { accumulateEvents } from './__fixtures__/accumulate-events';
import { fixtureFrames, fixtureJson, freezeNow, inPieces } from './__fixtures__/load-fixture';
import { BedrockConverseStreamDecoder } from './bedrock-converse-stream-decoder';
import { convertBedrockConverseResponse } from './convert-bedrock-converse-response';
import { convertToBedrockConverseRequest } from './convert-to-bedrock-converse-request';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const SIGNATURE = 'EqQBCkgIBxABGAIiQLsig==';

async function streamed(name: string): Promise<ReturnType<typeof accumulateEvents>> {
  const decoder = new BedrockConverseStreamDecoder();
  const events: StreamEvent[] = [];
  for await (const message of parseAwsEventStream(inPieces(fixtureFrames(`${name}.frames.jsonl`), [3, 17, 1, 40]))) events.push(...decoder.push(message));
  return accumulateEvents([...events, ...decoder.end()]);
}

/** Tool arguments compared as the JSON they are: a stream keeps the model's spacing. */
function normalized(content: AssistantContentPart[]): AssistantContentPart[] {
  return content.map((part) => (part.type === 'tool_call' ? { ...part, arguments: JSON.stringify(JSON.parse(part.arguments)) } : part));
}

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('ConverseStream round trip', () => {
  it.each(['text', 'tool-use', 'redacted-thinking'])('a streamed %s decodes to the parts, finish reason and usage of the whole answer', async (name) => {
    const whole = convertBedrockConverseResponse(fixtureJson(`bedrock-response-${name}.json`));
    const stream = await streamed(`bedrock-${name}`);
    expect({ ...stream, content: normalized(stream.content) }).toEqual({ content: normalized(whole.content), finishReason: whole.finishReason, usage: whole.usage });
  });

  it("carries Bedrock's reasoning signature through an Anthropic client and back to Bedrock, and never to Anthropic", async () => {
    const stream = await streamed('bedrock-tool-use');
    const response: CanonicalResponse = { id: 'msg_bdrk_1', model: 'rosetta/claude-on-bedrock', created: 1, content: stream.content, finishReason: stream.finishReason!, usage: stream.usage! };
    const shown = convertToAnthropicMessagesResponse({ response });
    // The client sees the signature wrapped with its origin, not as one of Anthropic's.
    expect((shown['content'] as { type: string; signature?: string }[])[0]).toEqual({ type: 'thinking', thinking: 'Two cities, so two calls.', signature: expect.stringMatching(/^rosetta-sig\.bedrock-converse\./) });
    const nextTurn = convertAnthropicMessagesRequest({
      body: {
        model: 'rosetta/claude-on-bedrock',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 2000 },
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
        messages: [
          { role: 'user', content: 'Weather in Paris and Oslo?' },
          { role: 'assistant', content: shown['content'] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', content: '18C' },
              { type: 'tool_result', tool_use_id: 'tooluse_Xr2o5TfGQ9mSj0k1bq8cWg', content: '4C' },
            ],
          },
        ],
      },
    }).value;

    const toBedrock = convertToBedrockConverseRequest({ request: nextTurn, upstreamModel: CLAUDE, reasoning: true, defaultMaxTokens: 8192 });
    const assistant = (toBedrock.value['messages'] as { role: string; content: unknown[] }[])[1]!;
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'Two cities, so two calls.', signature: SIGNATURE } } });
    expect(toBedrock.value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 2000 } });
    expect(toBedrock.warnings).toEqual([]);

    const toAnthropic = convertToAnthropicMessagesRequest({ request: { ...nextTurn, passthrough: undefined }, upstreamModel: 'claude-sonnet-4-5', defaultMaxTokens: 8192 });
    expect(JSON.stringify(toAnthropic.value)).not.toContain('EqQBCkgIBxABGAIiQLsig');
  });
});
