import Anthropic from '@anthropic-ai/sdk';
import { FunctionCallingConfigMode, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { GuardedDialect } from './guardrail-clients';

/**
 * What a client got of an answer with tool calls: each call's arguments as the JSON text it read
 * (Anthropic and Gemini hand over an object: serialised back), the thinking (Anthropic) with its
 * signature, and the error's status and message — in a stream, what arrived before it.
 */
export interface SeenCalls {
  calls: Array<{ name: string; arguments: string }>;
  thinking: Array<{ text: string; signature: string }>;
  error?: { status?: number; message: string };
}

const MAX_TOKENS = 300;
const SEND_MAIL = {
  name: 'send_mail',
  description: 'Sends an email.',
  parameters: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
};

/**
 * One user turn offering a `send_mail` tool, through each dialect's official SDK, streamed or not.
 * `thinking` enables Anthropic's extended thinking (the other dialects ignore it).
 */
export async function askForCalls(dialect: GuardedDialect, baseUrl: string, key: string, model: string, text: string, stream: boolean, thinking = false): Promise<SeenCalls> {
  const seen: SeenCalls = { calls: [], thinking: [] };
  try {
    if (dialect === 'openai') await openaiChat(seen, baseUrl, key, model, text, stream);
    else if (dialect === 'openai-responses') await responses(seen, baseUrl, key, model, text, stream);
    else if (dialect === 'anthropic') await anthropic(seen, baseUrl, key, model, text, stream, thinking);
    else await gemini(seen, baseUrl, key, model, text, stream);
  } catch (error) {
    const failure = error as { status?: number; message?: string };
    seen.error = { ...(typeof failure.status === 'number' ? { status: failure.status } : {}), message: String(failure.message ?? error) };
  }
  return seen;
}

async function openaiChat(seen: SeenCalls, baseUrl: string, key: string, model: string, text: string, stream: boolean): Promise<void> {
  const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  const params = { model, max_tokens: MAX_TOKENS, messages: [{ role: 'user' as const, content: text }], tools: [{ type: 'function' as const, function: SEND_MAIL }] };
  if (!stream) {
    const message = (await client.chat.completions.create(params)).choices[0]?.message;
    for (const call of message?.tool_calls ?? []) if (call.type === 'function') seen.calls.push({ name: call.function.name, arguments: call.function.arguments });
    return;
  }
  for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) {
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = (seen.calls[delta.index] ??= { name: '', arguments: '' });
      call.name += delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
    }
  }
}

async function responses(seen: SeenCalls, baseUrl: string, key: string, model: string, text: string, stream: boolean): Promise<void> {
  const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  const params = { model, max_output_tokens: MAX_TOKENS, input: text, tools: [{ type: 'function' as const, strict: false, ...SEND_MAIL }] };
  if (!stream) {
    for (const item of (await client.responses.create(params)).output) if (item.type === 'function_call') seen.calls.push({ name: item.name, arguments: item.arguments });
    return;
  }
  const byItem = new Map<string, { name: string; arguments: string }>();
  for await (const event of await client.responses.create({ ...params, stream: true })) {
    if (event.type === 'response.output_item.added' && event.item.type === 'function_call') {
      const call = { name: event.item.name, arguments: '' };
      byItem.set(event.item.id ?? '', call);
      seen.calls.push(call);
    }
    if (event.type === 'response.function_call_arguments.delta') byItem.get(event.item_id)!.arguments += event.delta;
    if (event.type === 'error') seen.error = { message: event.message };
    if (event.type === 'response.failed') seen.error = { message: event.response.error?.message ?? 'failed' };
  }
}

async function anthropic(seen: SeenCalls, baseUrl: string, key: string, model: string, text: string, stream: boolean, thinking: boolean): Promise<void> {
  const client = new Anthropic({ apiKey: key, baseURL: baseUrl, maxRetries: 0 });
  const params = {
    model,
    max_tokens: thinking ? 2048 : MAX_TOKENS,
    messages: [{ role: 'user' as const, content: text }],
    tools: [{ name: SEND_MAIL.name, description: SEND_MAIL.description, input_schema: SEND_MAIL.parameters as Anthropic.Tool.InputSchema }],
    ...(thinking ? { thinking: { type: 'enabled' as const, budget_tokens: 1024 } } : {}),
  };
  if (!stream) {
    for (const block of (await client.messages.create(params)).content) {
      if (block.type === 'tool_use') seen.calls.push({ name: block.name, arguments: JSON.stringify(block.input) });
      if (block.type === 'thinking') seen.thinking.push({ text: block.thinking, signature: block.signature });
    }
    return;
  }
  const blocks = new Map<number, { name: string; arguments: string } | { text: string; signature: string }>();
  for await (const event of await client.messages.create({ ...params, stream: true })) {
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      const call = { name: event.content_block.name, arguments: '' };
      blocks.set(event.index, call);
      seen.calls.push(call);
    }
    if (event.type === 'content_block_start' && event.content_block.type === 'thinking') {
      const block = { text: '', signature: '' };
      blocks.set(event.index, block);
      seen.thinking.push(block);
    }
    if (event.type !== 'content_block_delta') continue;
    const block = blocks.get(event.index);
    if (event.delta.type === 'input_json_delta' && block && 'arguments' in block) block.arguments += event.delta.partial_json;
    if (event.delta.type === 'thinking_delta' && block && 'text' in block) block.text += event.delta.thinking;
    if (event.delta.type === 'signature_delta' && block && 'signature' in block) block.signature += event.delta.signature;
  }
}

async function gemini(seen: SeenCalls, baseUrl: string, key: string, model: string, text: string, stream: boolean): Promise<void> {
  const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl, fetch: (input, init) => fetch(input, init) } });
  const request = {
    model,
    contents: [{ role: 'user', parts: [{ text }] }],
    config: { maxOutputTokens: MAX_TOKENS, tools: [{ functionDeclarations: [{ name: SEND_MAIL.name, description: SEND_MAIL.description, parametersJsonSchema: SEND_MAIL.parameters }] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } } },
  };
  const take = (calls: Array<{ name?: string; args?: Record<string, unknown> }> | undefined) => {
    for (const call of calls ?? []) seen.calls.push({ name: call.name ?? '', arguments: JSON.stringify(call.args ?? {}) });
  };
  if (!stream) {
    take((await client.models.generateContent(request)).functionCalls);
    return;
  }
  for await (const chunk of await client.models.generateContentStream(request)) take(chunk.functionCalls);
}
