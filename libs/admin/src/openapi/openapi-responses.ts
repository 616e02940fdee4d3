/** The Responses API's routes in the OpenAPI document (openapi-document.ts merges them in). */
import type { Json } from './openapi-parts';

export interface OperationBuilders {
  chat(summary: string, tags: string[], schema: string, security: Json[], extra?: Json): Json;
  json(schema: Json, description?: string): Json;
  pathParam(name: string, description: string): Json;
  queryParam(name: string, description: string, schema?: Json): Json;
  errors: Json;
  security: Json[];
}

export const RESPONSES_TAG = 'Dialect D: OpenAI Responses';

export function responsesPaths(b: OperationBuilders): Record<string, Record<string, Json>> {
  const id = b.pathParam('response_id', 'A stored response id (resp_…) of this key');
  const stored = (summary: string, extra: Json = {}): Json => ({ summary, tags: [RESPONSES_TAG], security: b.security, parameters: [id], responses: { '200': b.json({ type: 'object' }), ...b.errors }, ...extra });
  return {
    '/v1/responses': { post: b.chat('Create a response (OpenAI Responses API), streamed with `stream: true`', [RESPONSES_TAG], 'ResponsesRequest', b.security) },
    '/v1/responses/input_tokens': {
      post: { summary: "Count a Responses request's input tokens (stored conversation included)", tags: [RESPONSES_TAG], security: b.security, requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ResponsesRequest' } } } }, responses: { '200': b.json({ type: 'object', properties: { object: { const: 'response.input_tokens' }, input_tokens: { type: 'integer' } } }), ...b.errors } },
    },
    '/v1/responses/{response_id}': {
      get: stored('A stored response (`store` not false), for the key that made it; `include[]=reasoning.encrypted_content` adds encrypted reasoning'),
      delete: stored('Delete a stored response'),
    },
    '/v1/responses/{response_id}/input_items': {
      get: stored("A stored response's input items, as a list", {
        parameters: [id, b.queryParam('order', 'desc (default) or asc', { type: 'string', enum: ['asc', 'desc'] }), b.queryParam('after', 'An item id to list after'), b.queryParam('limit', '1–100, default 20', { type: 'integer' })],
      }),
    },
  };
}

export const RESPONSES_SCHEMAS: Json = {
  ResponsesRequest: {
    type: 'object',
    properties: {
      model: { type: 'string', default: 'rosetta/auto' },
      input: { description: 'A string, or items: messages, function_call(_output), custom_tool_call(_output), reasoning, item_reference' },
      instructions: { type: 'string' },
      previous_response_id: { type: 'string' },
      store: { type: 'boolean', default: true },
      include: { type: 'array', items: { type: 'string' } },
      stream: { type: 'boolean' },
      tools: { type: 'array', items: { type: 'object' }, description: 'function, custom and namespace tools; hosted tools reach Responses upstreams only' },
      tool_choice: {},
      reasoning: { type: 'object', properties: { effort: { type: 'string' }, summary: { type: 'string' } } },
      text: { type: 'object', properties: { format: { type: 'object' } } },
      max_output_tokens: { type: 'integer' },
      presence_penalty: { type: 'number', minimum: -2, maximum: 2, description: 'Echoed in the response (0 when absent)' },
      frequency_penalty: { type: 'number', minimum: -2, maximum: 2, description: 'Echoed in the response (0 when absent)' },
      metadata: { type: 'object' },
    },
  },
};
