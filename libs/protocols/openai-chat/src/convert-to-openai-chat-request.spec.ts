import type { CanonicalRequest } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertOpenAIChatRequest } from './convert-openai-chat-request';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-request';

describe('convertToOpenAIChatRequest', () => {
  describe('fast path (the client spoke dialect A)', () => {
    it('forwards unknown fields, strips routing fields, rewrites the model and asks for usage', () => {
      const body = fixtureJson('dialect-a-request-full.json');
      const snapshot = structuredClone(body);
      const request = convertOpenAIChatRequest({ body }).value;
      const { value, warnings } = convertToOpenAIChatRequest({ request, upstreamModel: 'gpt-4o-mini' });
      expect(value).toEqual(fixtureJson('openai-upstream-request-fast-path.json'));
      expect(value).toMatchObject({ logit_bias: { '50256': -100 }, foo_unknown: { keep: 'me' } });
      expect(warnings).toEqual([]);
      expect(body).toEqual(snapshot);
    });

    it('adds stream_options when the client streamed without them', () => {
      const body = { model: 'rosetta/auto', messages: [{ role: 'user', content: 'Hi' }], stream: true, provider_zdr: true };
      const request = convertOpenAIChatRequest({ body }).value;
      expect(convertToOpenAIChatRequest({ request, upstreamModel: 'm' }).value).toEqual({
        model: 'm',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
    });

    it('turns streaming off, without stream_options, when the caller fetches a whole answer', () => {
      const body = { model: 'rosetta/auto', messages: [], stream: true, stream_options: { include_usage: true } };
      const request: CanonicalRequest = { model: 'rosetta/auto', messages: [], stream: false, routing: {}, passthrough: { protocol: 'openai', body } };
      expect(convertToOpenAIChatRequest({ request, upstreamModel: 'm' }).value).toEqual({ model: 'm', messages: [], stream: false });
    });
  });

  describe('canonical path', () => {
    it('rebuilds a dialect-A request from its canonical form', () => {
      const { passthrough: _passthrough, ...request } = convertOpenAIChatRequest({ body: fixtureJson('dialect-a-request-full.json') }).value;
      const { value, warnings } = convertToOpenAIChatRequest({ request, upstreamModel: 'gpt-4o-mini' });
      expect(value).toEqual(fixtureJson('openai-upstream-request-rebuilt.json'));
      expect(warnings).toEqual([]);
    });

    it('encodes a request from another dialect, warning about what cannot be carried', () => {
      const request = fixtureJson<CanonicalRequest>('canonical-request-cross.json');
      const { value, warnings } = convertToOpenAIChatRequest({ request, upstreamModel: 'gpt-4o-mini' });
      expect(value).toEqual(fixtureJson('openai-upstream-request-cross.json'));
      expect(warnings).toEqual([
        { feature: 'image', message: "An image given as 'file' cannot be sent upstream; dropped." },
        { feature: 'document', message: 'Chat Completions cannot fetch a document by URL; dropped.' },
        {
          feature: 'tool_result',
          message: "Non-text content in the result of tool call 'toolu_02' cannot be sent upstream; only its text was kept.",
        },
        { feature: 'top_k', message: 'Chat Completions has no top_k; dropped.' },
        {
          feature: 'thinking',
          message: 'Chat Completions takes a reasoning effort, not a token budget; the upstream default applies.',
        },
      ]);
    });

    it('leaves stream fields out of a non-streamed request and disables reasoning only when an effort was named', () => {
      const base: CanonicalRequest = { model: 'rosetta/x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} };
      const off = convertToOpenAIChatRequest({ request: { ...base, thinking: { enabled: false, effort: 'low' } }, upstreamModel: 'o4-mini' });
      expect(off.value).toEqual({ model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'none' });
      const unset = convertToOpenAIChatRequest({ request: { ...base, thinking: { enabled: false } }, upstreamModel: 'gpt-4o-mini' });
      expect(unset).toEqual({ value: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, warnings: [] });
    });

    describe('thinking settings against what the endpoint can do', () => {
      const base: CanonicalRequest = { model: 'rosetta/x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} };
      const encode = (thinking: CanonicalRequest['thinking'], reasoning?: boolean) =>
        convertToOpenAIChatRequest({ request: { ...base, thinking }, upstreamModel: 'm', reasoning });

      it('sends a token budget to a reasoning endpoint as the nearest effort, and says so', () => {
        const efforts = [1024, 2048, 4096, 8192, 8193, 32000].map((budgetTokens) => encode({ enabled: true, budgetTokens }, true).value['reasoning_effort']);
        expect(efforts).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
        expect(encode({ enabled: true, budgetTokens: 4096 }, true).warnings).toEqual([
          { feature: 'thinking', message: 'Chat Completions takes a reasoning effort, not a token budget; a budget of 4096 tokens was sent as reasoning_effort "medium".' },
        ]);
      });

      it('drops thinking settings for an endpoint that does not reason, with a warning', () => {
        const budget = encode({ enabled: true, budgetTokens: 4096 }, false);
        expect(budget.value).not.toHaveProperty('reasoning_effort');
        expect(budget.warnings).toEqual([{ feature: 'thinking', message: 'This model does not reason; the thinking budget was dropped.' }]);
        const effort = encode({ enabled: true, effort: 'high' }, false);
        expect(effort.value).not.toHaveProperty('reasoning_effort');
        expect(effort.warnings).toEqual([{ feature: 'thinking', message: 'This model does not reason; reasoning_effort dropped.' }]);
        // Turning reasoning off on a model that has none needs no word.
        expect(encode({ enabled: false, effort: 'low' }, false)).toEqual({ value: { model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, warnings: [] });
      });

      it('forwards an explicit effort to a reasoning or unknown endpoint, and keeps the old budget rule when unknown', () => {
        expect(encode({ enabled: true, effort: 'high' }, true).value['reasoning_effort']).toBe('high');
        expect(encode({ enabled: true, effort: 'minimal' }).value['reasoning_effort']).toBe('minimal');
        const unknown = encode({ enabled: true, budgetTokens: 4096 });
        expect(unknown.value).not.toHaveProperty('reasoning_effort');
        expect(unknown.warnings[0]?.message).toBe('Chat Completions takes a reasoning effort, not a token budget; the upstream default applies.');
      });
    });
  });
});
