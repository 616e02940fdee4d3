/**
 * What the three chat dialects answer (non-streamed), field by field, as the gateway's encoders
 * write them (convert-to-openai-chat-response, convert-to-anthropic-messages-response,
 * convert-to-gemini-response); openapi-document.ts merges them in, and the e2e test holds real
 * answers to them. Only fields always written are `required`.
 */
import { ref, type Json } from './openapi-parts';

const integer = { type: 'integer', minimum: 0 };

const OPENAI_TOOL_CALL: Json = {
  type: 'object',
  required: ['id', 'type', 'function'],
  properties: {
    id: { type: 'string' },
    type: { const: 'function' },
    function: { type: 'object', required: ['name', 'arguments'], properties: { name: { type: 'string' }, arguments: { type: 'string', description: 'JSON text, as the model wrote it' } } },
  },
};

const ANTHROPIC_BLOCK: Json = {
  type: 'object',
  required: ['type'],
  description: 'One content block: text, thinking, redacted_thinking or tool_use (the fields below belong to the block of their type)',
  properties: {
    type: { type: 'string', enum: ['text', 'thinking', 'redacted_thinking', 'tool_use'] },
    text: { type: 'string', description: 'text' },
    thinking: { type: 'string', description: 'thinking' },
    signature: { type: 'string', description: 'thinking: give it back unchanged with the turn' },
    data: { type: 'string', description: 'redacted_thinking' },
    id: { type: 'string', description: 'tool_use' },
    name: { type: 'string', description: 'tool_use' },
    input: { type: 'object', description: 'tool_use: the arguments' },
  },
};

const GEMINI_PART: Json = {
  type: 'object',
  description: 'One part: text (thought: true for thinking) or functionCall',
  properties: {
    text: { type: 'string' },
    thought: { type: 'boolean' },
    thoughtSignature: { type: 'string' },
    functionCall: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, args: { type: 'object' } } },
  },
};

export const CHAT_ANSWER_SCHEMAS: Json = {
  OpenAIChatMessage: {
    type: 'object',
    required: ['role'],
    description: 'One message of the conversation',
    properties: {
      role: { type: 'string', enum: ['system', 'developer', 'user', 'assistant', 'tool'] },
      content: { description: 'Text, or an array of parts (text, image_url, input_audio, file); null on an assistant turn that only calls tools' },
      name: { type: 'string' },
      tool_calls: { type: 'array', items: OPENAI_TOOL_CALL, description: 'assistant: the calls it made' },
      tool_call_id: { type: 'string', description: 'tool: the call this answers' },
    },
  },
  OpenAIChatCompletion: {
    type: 'object',
    required: ['id', 'object', 'created', 'model', 'choices'],
    properties: {
      id: { type: 'string', description: 'chatcmpl-…, the gateway’s own' },
      object: { const: 'chat.completion' },
      created: { type: 'integer', description: 'Unix seconds' },
      model: { type: 'string', description: 'The model that answered' },
      choices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['index', 'message', 'finish_reason'],
          properties: {
            index: integer,
            message: {
              type: 'object',
              required: ['role', 'content'],
              properties: {
                role: { const: 'assistant' },
                content: { type: ['string', 'null'], description: 'null when the turn is only tool calls or a refusal' },
                refusal: { type: ['string', 'null'] },
                tool_calls: { type: 'array', items: OPENAI_TOOL_CALL },
                reasoning_content: { type: 'string', description: 'Thinking text (not in OpenAI’s schema; DeepSeek- and vLLM-style clients read it)' },
                reasoning_details: { type: 'array', items: { type: 'object' }, description: 'Signed thinking, to send back with the turn' },
              },
            },
            logprobs: { type: 'null' },
            finish_reason: { type: 'string', enum: ['stop', 'length', 'tool_calls', 'content_filter'] },
          },
        },
      },
      usage: {
        type: 'object',
        required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
        properties: {
          prompt_tokens: { ...integer, description: 'Cached tokens included' },
          completion_tokens: { ...integer, description: 'Reasoning tokens included' },
          total_tokens: integer,
          prompt_tokens_details: { type: 'object', properties: { cached_tokens: integer, audio_tokens: integer, cache_write_tokens: integer } },
          completion_tokens_details: { type: 'object', properties: { reasoning_tokens: integer, audio_tokens: integer, accepted_prediction_tokens: integer, rejected_prediction_tokens: integer } },
          cost: { type: 'number', description: 'USD, when the gateway priced the answer' },
        },
      },
    },
  },
  AnthropicMessage: {
    type: 'object',
    required: ['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence', 'usage'],
    properties: {
      id: { type: 'string', description: 'msg_…' },
      type: { const: 'message' },
      role: { const: 'assistant' },
      model: { type: 'string', description: 'The model that answered' },
      content: { type: 'array', items: ANTHROPIC_BLOCK },
      stop_reason: { type: 'string', enum: ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'] },
      stop_sequence: { type: ['string', 'null'] },
      usage: {
        type: 'object',
        required: ['input_tokens', 'output_tokens'],
        properties: {
          input_tokens: { ...integer, description: 'Cache reads and writes left out, as Anthropic counts' },
          output_tokens: integer,
          cache_creation_input_tokens: integer,
          cache_read_input_tokens: integer,
        },
      },
    },
  },
  GeminiResponse: {
    type: 'object',
    required: ['candidates'],
    properties: {
      candidates: {
        type: 'array',
        items: {
          type: 'object',
          required: ['content', 'index'],
          properties: {
            content: { type: 'object', properties: { role: { const: 'model' }, parts: { type: 'array', items: GEMINI_PART } } },
            finishReason: { type: 'string', enum: ['STOP', 'MAX_TOKENS', 'SAFETY', 'OTHER'] },
            index: integer,
          },
        },
      },
      usageMetadata: {
        type: 'object',
        properties: { promptTokenCount: integer, candidatesTokenCount: integer, totalTokenCount: integer, thoughtsTokenCount: integer, cachedContentTokenCount: integer },
      },
      modelVersion: { type: 'string', description: 'The model that answered' },
      responseId: { type: 'string', description: 'The gateway’s request id' },
    },
  },
};

/** Each chat route's request and answer schemas (the answer as a `$ref`). */
export const CHAT_ANSWERS = {
  OpenAIChatRequest: ref('OpenAIChatCompletion'),
  AnthropicMessagesRequest: ref('AnthropicMessage'),
  GeminiRequest: ref('GeminiResponse'),
} as const;
