import { randomId } from '../http-io';
import type { ReplyPlan, SimToolCall } from '../reply-plan';
import type { StreamFrame } from '../sse-stream';
import { thinkingSignature } from '../signatures';
import { groupTokenCount, groupTokens, splitArguments } from '../stream-pieces';
import { reasoningSigned } from './responses-request';

type Item = Record<string, unknown>;

export interface ResponsesContext {
  id: string;
  createdAt: number;
  model: string;
  customTools: Set<string>;
  namespaces: Map<string, string>;
  includeEncrypted: boolean;
}

export function newResponsesContext(model: string, tools: { customTools: Set<string>; namespaces: Map<string, string> }, includeEncrypted: boolean): ResponsesContext {
  return { id: `resp_${randomId(32)}`, createdAt: Math.floor(Date.now() / 1000), model, customTools: tools.customTools, namespaces: tools.namespaces, includeEncrypted };
}

/** The output items of a plan, finished: reasoning, the message, then the tool calls. */
export function outputItems(plan: ReplyPlan, ctx: ResponsesContext): Item[] {
  const items: Item[] = [];
  if (plan.thinking) items.push(reasoningItem(plan.thinking.text, ctx));
  if (plan.text !== '') items.push({ id: `msg_${randomId(32)}`, type: 'message', status: 'completed', role: 'assistant', content: [outputText(plan.text)] });
  for (const call of plan.toolCalls) items.push(callItem(call, ctx, 'completed'));
  return items;
}

function outputText(text: string): Item {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function reasoningItem(text: string, ctx: ResponsesContext): Item {
  const item: Item = { id: `rs_${randomId(32)}`, type: 'reasoning', summary: [{ type: 'summary_text', text }] };
  if (ctx.includeEncrypted) item['encrypted_content'] = thinkingSignature('openai-responses', reasoningSigned(item));
  return item;
}

function callItem(call: SimToolCall & { id?: string }, ctx: ResponsesContext, status: string): Item {
  const callId = call.id ?? `call_${randomId(24)}`;
  const namespace = ctx.namespaces.get(call.name);
  const grouped = namespace === undefined ? {} : { namespace };
  if (ctx.customTools.has(call.name)) {
    const input = typeof call.arguments['input'] === 'string' ? call.arguments['input'] : JSON.stringify(call.arguments);
    return { id: `ctc_${randomId(32)}`, type: 'custom_tool_call', status, call_id: callId, name: call.name, ...grouped, input };
  }
  return { id: `fc_${randomId(32)}`, type: 'function_call', status, arguments: JSON.stringify(call.arguments), call_id: callId, name: call.name, ...grouped };
}

export function renderResponse(plan: ReplyPlan, ctx: ResponsesContext, output: Item[], status = plan.finish === 'length' ? 'incomplete' : 'completed'): Item {
  return {
    id: ctx.id,
    object: 'response',
    created_at: ctx.createdAt,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    store: false,
    usage: {
      input_tokens: plan.usage.input,
      input_tokens_details: { cached_tokens: plan.usage.cached },
      output_tokens: plan.usage.output,
      output_tokens_details: { reasoning_tokens: plan.usage.reasoning },
      total_tokens: plan.usage.input + plan.usage.output,
    },
  };
}

/** The whole event stream as frames, in the order the real API sends it. */
export function renderResponsesFrames(plan: ReplyPlan, ctx: ResponsesContext, chunkTokens: number): StreamFrame[] {
  let seq = 0;
  const frame = (type: string, data: Item, tokens = 0, phase: StreamFrame['phase'] = 'body'): StreamFrame => ({
    data: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
    tokens,
    phase,
  });
  const items = outputItems(plan, ctx);
  const inProgress = { ...renderResponse(plan, ctx, [], 'in_progress'), usage: null };
  const frames: StreamFrame[] = [frame('response.created', { response: inProgress }, 0, 'open'), frame('response.in_progress', { response: inProgress }, 0, 'open')];
  items.forEach((item, index) => {
    const where = { item_id: item['id'], output_index: index };
    if (item['type'] === 'reasoning') {
      const text = (item['summary'] as Item[])[0]!['text'] as string;
      frames.push(frame('response.output_item.added', { output_index: index, item: { id: item['id'], type: 'reasoning', summary: [] } }));
      frames.push(frame('response.reasoning_summary_part.added', { ...where, summary_index: 0, part: { type: 'summary_text', text: '' } }));
      for (const group of groupTokens(text, chunkTokens)) frames.push(frame('response.reasoning_summary_text.delta', { ...where, summary_index: 0, delta: group }, groupTokenCount(group)));
      frames.push(frame('response.reasoning_summary_text.done', { ...where, summary_index: 0, text }));
      frames.push(frame('response.reasoning_summary_part.done', { ...where, summary_index: 0, part: { type: 'summary_text', text } }));
    } else if (item['type'] === 'message') {
      const text = ((item['content'] as Item[])[0]!['text'] as string) ?? '';
      frames.push(frame('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }));
      frames.push(frame('response.content_part.added', { ...where, content_index: 0, part: outputText('') }));
      for (const group of groupTokens(text, chunkTokens)) frames.push(frame('response.output_text.delta', { ...where, content_index: 0, delta: group, logprobs: [] }, groupTokenCount(group)));
      frames.push(frame('response.output_text.done', { ...where, content_index: 0, text, logprobs: [] }));
      frames.push(frame('response.content_part.done', { ...where, content_index: 0, part: outputText(text) }));
    } else if (item['type'] === 'function_call') {
      frames.push(frame('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } }));
      for (const piece of splitArguments(item['arguments'] as string, chunkTokens)) frames.push(frame('response.function_call_arguments.delta', { ...where, delta: piece }, Math.ceil(piece.length / 4)));
      frames.push(frame('response.function_call_arguments.done', { ...where, name: item['name'], arguments: item['arguments'] }));
    } else {
      frames.push(frame('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', input: '' } }));
      frames.push(frame('response.custom_tool_call_input.delta', { ...where, delta: item['input'] }, 1));
      frames.push(frame('response.custom_tool_call_input.done', { ...where, input: item['input'] }));
    }
    frames.push(frame('response.output_item.done', { output_index: index, item }));
  });
  const done = renderResponse(plan, ctx, items);
  frames.push(frame(done['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: done }, 0, 'close'));
  return frames;
}

/** A failed response mid-stream, as the real API reports one. */
export function responsesStreamError(message: string): string {
  const response = { object: 'response', status: 'failed', error: { code: 'server_error', message }, output: [] };
  return `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: 9999, response })}\n\n`;
}

export function responsesGarbage(text: string): string {
  return `event: response.output_text.delta\ndata: ${text}\n\n`;
}
