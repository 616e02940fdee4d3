import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { convertAnthropicMessagesRequest, convertToAnthropicMessagesRequest } from '@rosetta/protocols/anthropic-messages';
import { isRecord } from '@rosetta/protocols/common';
import { convertGeminiRequest, convertToGeminiRequest, normalizeGeminiRequest } from '@rosetta/protocols/gemini';
import { convertOpenAIChatRequest, convertToOpenAIChatRequest } from '@rosetta/protocols/openai-chat';
import fc from 'fast-check';
import { depthOf, hostileBody, nested, SEEDS, type Dialect } from './__fixtures__/fuzz-bodies';
import { MAX_JSON_DEPTH } from './common/json-nesting';
import { requireObjectBody } from '@rosetta/protocols/common';
import { convertToOpenAIResponsesRequest, openAIResponsesDialect } from '@rosetta/protocols/openai-responses';

/**
 * Property-based fuzzing of the three dialect decoders (issue 12): whatever JSON a caller sends,
 * the decode (checks and conversion in one pass) either succeeds or throws a GatewayError with a 4xx status — never a
 * TypeError, a RangeError or a 5xx. What decodes must also encode for every upstream protocol
 * (the same checks apply), since a failure there would be blamed on the upstream.
 */
const RUNS = { seed: 1212, numRuns: 1000 };

/** Each route's decoding, as the dialect descriptors do it. */
const DECODERS: Record<Dialect, Record<string, (raw: unknown) => CanonicalRequest>> = {
  openai: {
    'chat/completions': (raw) => convertOpenAIChatRequest({ body: raw }).value,
  },
  anthropic: {
    messages: (raw) => convertAnthropicMessagesRequest({ body: raw }).value,
    count_tokens: (raw) => convertAnthropicMessagesRequest({ body: raw, countTokens: true }).value,
  },
  'openai-responses': {
    responses: (raw) =>
      openAIResponsesDialect.decodeChat({ body: raw, query: {}, headers: {}, requestId: 'req_fuzz', defaultModel: 'rosetta/auto', stored: new Map() }).request,
  },
  gemini: {
    generateContent: (raw) => geminiGenerate(raw, false),
    streamGenerateContent: (raw) => geminiGenerate(raw, true),
    countTokens: (raw) => {
      const body = normalizeGeminiRequest(requireObjectBody(raw));
      const inner = isRecord(body['generateContentRequest']) ? body['generateContentRequest'] : body;
      return convertGeminiRequest({ body: inner, model: 'rosetta/gemini-2.5-flash', stream: false }).value;
    },
  },
};

function geminiGenerate(raw: unknown, stream: boolean): CanonicalRequest {
  const body = normalizeGeminiRequest(requireObjectBody(raw));
  return convertGeminiRequest({ body, model: 'rosetta/gemini-2.5-flash', stream }).value;
}

/** The canonical request as each upstream protocol's wire body, serialised as the transport does. */
function encodeForEveryProtocol(request: CanonicalRequest): void {
  JSON.stringify(convertToOpenAIChatRequest({ request, upstreamModel: 'gpt-4o-mini' }).value);
  JSON.stringify(convertToAnthropicMessagesRequest({ request, upstreamModel: 'claude-haiku-4-5', defaultMaxTokens: 1024 }).value);
  JSON.stringify(convertToGeminiRequest({ request, upstreamModel: 'gemini-2.5-flash' }).value);
  JSON.stringify(convertToOpenAIResponsesRequest({ request: { ...request, passthrough: undefined }, upstreamModel: 'gpt-5-codex', reasoning: true }).value);
}

/** Undefined when `run` succeeded or was refused properly; otherwise what went wrong. */
function misbehaviour(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof GatewayError) return error.status >= 400 && error.status < 500 ? undefined : `GatewayError ${error.status} ${error.type}: ${error.message}`;
    return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : `threw ${String(error)}`;
  }
}

const cases = Object.entries(DECODERS).flatMap(([dialect, routes]) => Object.entries(routes).map(([route, decode]) => ({ dialect: dialect as Dialect, route, decode })));

describe('dialect decoders under fuzzing', () => {
  it.each(cases)('$dialect $route: every seed decodes and encodes', ({ dialect, decode }) => {
    for (const seed of SEEDS[dialect]) expect(() => encodeForEveryProtocol(decode(seed))).not.toThrow();
  });

  it.each(cases)('$dialect $route: hostile bodies succeed or get a 4xx GatewayError', ({ dialect, decode }) => {
    fc.assert(
      fc.property(hostileBody(dialect), (body) => {
        expect(depthOf(body)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
        expect(misbehaviour(() => encodeForEveryProtocol(decode(body)))).toBeUndefined();
      }),
      RUNS,
    );
  });

  it.each(cases)('$dialect $route: nesting up to the limit in every free-form member', ({ dialect, decode }) => {
    // The deepest body read-json-body lets through, at the members decoders walk recursively.
    const deepAt = (wrap: (inner: unknown) => unknown, above: number): unknown => wrap(nested(MAX_JSON_DEPTH - above, ['properties', 'x', 'items', '']));
    const seed = SEEDS[dialect][1] as Record<string, unknown>;
    const bodies = [
      deepAt((deep) => ({ ...seed, metadata: deep }), 1),
      deepAt((deep) => ({ ...seed, provider_configs: deep }), 1),
      dialect === 'openai'
        ? deepAt((deep) => ({ ...seed, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { p: deep } } } }] }), 6)
        : dialect === 'openai-responses'
          ? deepAt((deep) => ({ ...seed, tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { p: deep } } }] }), 5)
          : dialect === 'anthropic'
          ? deepAt((deep) => ({ ...seed, tools: [{ name: 'f', input_schema: { type: 'object', properties: { p: deep } } }] }), 5)
          : deepAt((deep) => ({ ...seed, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { p: deep } } }] }] }), 7),
      dialect === 'gemini'
        ? deepAt((deep) => ({ contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: { a: deep } } }] }] }), 7)
        : dialect === 'openai-responses'
          ? deepAt((deep) => ({ ...seed, input: [{ role: 'user', content: [{ type: 'input_text', text: 'x', extra: deep }] }] }), 5)
          : deepAt((deep) => ({ ...seed, messages: [{ role: 'user', content: [{ type: 'text', text: 'x', extra: deep }] }] }), 5),
    ];
    for (const body of bodies) {
      expect(depthOf(body)).toBe(MAX_JSON_DEPTH);
      expect(misbehaviour(() => encodeForEveryProtocol(decode(body)))).toBeUndefined();
    }
  });
});
