import { GatewayError } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { normalizeGeminiRequest } from './normalize-gemini-request';

describe('normalizeGeminiRequest', () => {
  it('gives a snake_case body the camelCase spelling of the same request, without touching the input', () => {
    const snake = fixtureJson('dialect-c-request-snake.json');
    const snapshot = structuredClone(snake);
    const camel = fixtureJson('dialect-c-request-camel.json');
    expect(normalizeGeminiRequest(snake)).toEqual(camel);
    expect(normalizeGeminiRequest(camel)).toEqual(camel);
    expect(snake).toEqual(snapshot);
  });

  it('keeps user keys in free-form values and Schema property names, normalising everything else', () => {
    const body = {
      contents: [
        {
          parts: [
            { function_call: { name: 'f', args: { max_output_tokens: 1, nested_map: { top_k: 2 } } } },
            { function_response: { name: 'f', response: { inline_data: 'x', error_code: 3 } } },
          ],
        },
      ],
      tools: [
        {
          function_declarations: [
            {
              name: 'f',
              parameters: {
                type: 'OBJECT',
                properties: { user_name: { type: 'STRING', max_length: '9', default: { keep_me: true } } },
                any_of: [{ min_items: '1', example: { raw_key: 1 } }],
              },
              response: { type: 'OBJECT', properties: { result_code: { type: 'INTEGER' } } },
              response_json_schema: { type: 'object', properties: { snake_key: {} } },
            },
          ],
        },
      ],
      generation_config: {
        response_schema: { type: 'OBJECT', properties: { answer_text: { type: 'STRING' } }, property_ordering: ['answer_text'] },
        http_options: { base_url: 'x', headers: { 'x-my_header': 'v' }, extra_body: { snake_case: 1 } },
        labels: { team_name: 'core' },
      },
    };
    expect(normalizeGeminiRequest(body)).toEqual({
      contents: [
        {
          parts: [
            { functionCall: { name: 'f', args: { max_output_tokens: 1, nested_map: { top_k: 2 } } } },
            { functionResponse: { name: 'f', response: { inline_data: 'x', error_code: 3 } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parameters: {
                type: 'OBJECT',
                properties: { user_name: { type: 'STRING', maxLength: '9', default: { keep_me: true } } },
                anyOf: [{ minItems: '1', example: { raw_key: 1 } }],
              },
              response: { type: 'OBJECT', properties: { result_code: { type: 'INTEGER' } } },
              responseJsonSchema: { type: 'object', properties: { snake_key: {} } },
            },
          ],
        },
      ],
      generationConfig: {
        responseSchema: { type: 'OBJECT', properties: { answer_text: { type: 'STRING' } }, propertyOrdering: ['answer_text'] },
        httpOptions: { baseUrl: 'x', headers: { 'x-my_header': 'v' }, extraBody: { snake_case: 1 } },
        labels: { team_name: 'core' },
      },
    });
  });

  it('leaves the routing fields as the gateway defines them', () => {
    const routing = {
      provider_order: ['a'],
      provider_configs: { acme: { api_key: 'k', endpoint_overrides: { m: { base_url: 'u' } } } },
      models: ['x'],
      provider: { max_price: { prompt: 1 } },
      provider_future_setting: { some_key: 1 },
    };
    expect(normalizeGeminiRequest({ contents: [], ...routing })).toEqual({ contents: [], ...routing });
  });

  it('copies a __proto__ key as data instead of setting a prototype', () => {
    const body = JSON.parse('{"contents":[{"parts":[{"function_call":{"name":"f","args":{"__proto__":{"x":1}}}},{"__proto__":{"y":2}}]}]}') as Record<string, unknown>;
    const normalized = normalizeGeminiRequest(body) as { contents: { parts: Record<string, unknown>[] }[] };
    const [call, odd] = normalized.contents[0]?.parts ?? [];
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(Object.keys(odd ?? {})).toEqual(['__proto__']);
    expect(JSON.stringify(call)).toBe('{"functionCall":{"name":"f","args":{"__proto__":{"x":1}}}}');
  });

  it('refuses a field given in both spellings, naming it', () => {
    let caught: unknown;
    try {
      normalizeGeminiRequest({ contents: [], generationConfig: { topK: 1, top_k: 2 } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ status: 400, param: 'generationConfig.topK', message: "Field 'generationConfig.topK' is given twice (also as 'top_k')." });
  });
});
