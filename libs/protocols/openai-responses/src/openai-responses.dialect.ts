import type { CanonicalResponse, StreamEvent } from '@rosetta/canonical';
import { isRecord, isStringArray, missingField, requireObjectBody, SSE_CONTENT_TYPE, withDefaultModel, type ChatInput, type ClientDialect, type JsonObject, type StreamFraming } from '@rosetta/protocols/common';
import { convertOpenAIResponsesRequest } from './convert-openai-responses-request';
import { convertToOpenAIResponsesOutput } from './convert-to-openai-responses-output';
import { renderOpenAIResponsesError } from './openai-responses-error';
import { OpenAIResponsesPassThroughFraming } from './openai-responses-pass-through-framing';
import { OpenAIResponsesStreamEncoder } from './openai-responses-stream-encoder';
import { inputItemsPage, rebuildConversation, references, type ResponseRecord } from './responses-conversation';
import { nowSeconds, responseEnvelope, statusFor, type ResponseHead } from './responses-envelope';
import { newResponseId } from './responses-ids';
import { ToolNames } from './tool-names';

declare module '@rosetta/canonical' {
  interface DialectIds {
    'openai-responses': true;
  }
}

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/**
 * The OpenAI Responses API as a client dialect (Codex CLI, the Vercel AI SDK's default OpenAI
 * provider): `POST /v1/responses`, plain and streamed, with responses kept server-side for
 * `previous_response_id` and `item_reference`, and the stored routes. Errors use OpenAI's envelope.
 */
export const openAIResponsesDialect: ClientDialect = {
  id: 'openai-responses',
  routes: [
    { method: 'POST', pattern: '/v1/responses', operation: 'chat' },
    { method: 'POST', pattern: '/v1/responses/input_tokens', operation: 'count_tokens' },
    { method: 'GET', pattern: '/v1/responses/{response_id}/input_items', operation: 'stored_input_items' },
    { method: 'GET', pattern: '/v1/responses/{response_id}', operation: 'stored_get' },
    { method: 'DELETE', pattern: '/v1/responses/{response_id}', operation: 'stored_delete' },
  ],
  ownsPath: (path) => path.startsWith('/v1/responses'),
  credential: {},
  renderError: renderOpenAIResponsesError,
  storage: {
    noun: 'Response',
    continuedBy: 'previous_response_id',
    references,
    // The openai SDK writes arrays in the query with brackets (`include[]=…`).
    render: (record, query) => clientView((record as ResponseRecord).response, includesEncrypted(query['include'] ?? query['include[]'])),
    renderInputItems: (record, query) => inputItemsPage(record as ResponseRecord, query),
    renderDeleted: (id) => ({ id, object: 'response.deleted', deleted: true }),
  },
  recognises: (body) => 'input' in body && !('messages' in body) && !('contents' in body),
  decodeForRouting: (body, model) => convertOpenAIResponsesRequest({ body: { ...body, model } }).value,
  decodeCountTokens(input) {
    const { value: request } = decodeConversation(input.body, input.defaultModel, input.stored, newResponseId());
    return { request, encode: (tokens) => ({ object: 'response.input_tokens', input_tokens: tokens }) };
  },
  decodeChat(input) {
    const id = newResponseId();
    const { body, conversation, value: request, warnings } = decodeConversation(input.body, input.defaultModel, input.stored, id);
    const store = body['store'] !== false;
    const includeEncrypted = includesEncrypted(body['include']);
    const tools = new ToolNames(request.tools);
    const createdAt = Math.floor(Date.now() / 1000);
    const keep = async (response: JsonObject): Promise<void> => {
      if (!store || !input.keep) return;
      const record: ResponseRecord = { response, input: conversation.own };
      const parentId = typeof body['previous_response_id'] === 'string' ? body['previous_response_id'] : undefined;
      await input.keep(parentId === undefined ? { id, record } : { id, parentId, record });
    };
    const head = (model: string): ResponseHead => ({ id, createdAt, model, body });
    return {
      request,
      warnings,
      encodeResponse: async (response: CanonicalResponse) => {
        const output = convertToOpenAIResponsesOutput(response.content, { responseId: id, tools });
        const finished = responseEnvelope(head(response.model), statusFor(response.finishReason), output, { usage: response.usage, finish: response.finishReason, completedAt: nowSeconds() });
        await keep(finished);
        return clientView(finished, includeEncrypted);
      },
      streamFraming: (model) => streamFraming(new OpenAIResponsesStreamEncoder({ head: head(model), tools, includeEncrypted }), keep),
      passThroughFraming: (model) => streamFraming(new OpenAIResponsesPassThroughFraming({ head: head(model), includeEncrypted }), keep),
    };
  },
};

/** The body with its stored conversation rebuilt (as the upstream must see it), decoded. */
function decodeConversation(raw: unknown, defaultModel: string, stored: ChatInput['stored'], id: string) {
  const body = requireObjectBody(withDefaultModel(raw, defaultModel));
  const conversation = rebuildConversation(body, stored, id);
  if (conversation.history.length + conversation.own.length === 0) throw missingField('input');
  const expanded: JsonObject = { ...body, input: [...conversation.history, ...conversation.own] };
  return { body, conversation, ...convertOpenAIResponsesRequest({ body: expanded }) } as const;
}

/** What writes a Responses stream: the full encoder or the pass-through framing. */
interface ResponsesStreamWriter {
  encode(event: StreamEvent): string;
  /** The finished response, once the stream has ended. */
  readonly final: JsonObject | undefined;
}

/** The stream: the finished response is stored before its last event goes out. */
function streamFraming(encoder: ResponsesStreamWriter, keep: (response: JsonObject) => Promise<void>): StreamFraming {
  let last: string | undefined;
  return {
    contentType: SSE_CONTENT_TYPE,
    async beforeEnd(event) {
      last = encoder.encode(event);
      if (encoder.final) await keep(encoder.final);
    },
    encode(event) {
      if (last !== undefined && (event.type === 'finish' || event.type === 'error')) {
        const text = last;
        last = undefined;
        return text;
      }
      return encoder.encode(event);
    },
  };
}

function includesEncrypted(include: unknown): boolean {
  if (isStringArray(include)) return include.includes(ENCRYPTED_REASONING);
  return typeof include === 'string' && include === ENCRYPTED_REASONING;
}

/** What the client sees: encrypted reasoning only when it asked for it. */
function clientView(response: JsonObject, includeEncrypted: boolean): JsonObject {
  if (includeEncrypted || !Array.isArray(response['output'])) return response;
  return { ...response, output: response['output'].map((item: unknown) => (isRecord(item) && 'encrypted_content' in item ? withoutEncrypted(item) : item)) };
}

function withoutEncrypted(item: JsonObject): JsonObject {
  const { encrypted_content: _, ...rest } = item;
  return rest;
}

