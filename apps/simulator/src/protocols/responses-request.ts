import { isRecord } from '../http-io';
import type { NeutralMessage, NeutralRequest, NeutralTool, NeutralToolChoice } from '../reply-plan';
import { verifyThinkingSignature } from '../signatures';
import type { PromptCacheQuery } from '../prompt-cache/prompt-cache-types';
import { OpenAiRequestError, readPromptCacheOptions } from './openai-request';

/**
 * A Responses request as OpenAI reads it, refusing what OpenAI refuses: a tool output without its
 * call, reasoning whose encrypted content was changed, a `previous_response_id` it never issued
 * (a gateway must rebuild the conversation itself).
 */
export interface ResponsesRequest {
  neutral: NeutralRequest;
  /** Custom (free-form) tools by name: their calls carry `input` text, not JSON arguments. */
  customTools: Set<string>;
  /** The namespace of each namespaced tool, by its name: named again on its calls. */
  namespaces: Map<string, string>;
  includeEncrypted: boolean;
  /** Automatic prompt caching, grouped by `prompt_cache_key`. */
  cache: PromptCacheQuery;
}

function invalidType(param: string, expected: string): OpenAiRequestError {
  return new OpenAiRequestError(`Invalid type for '${param}': expected ${expected}.`, param, 'invalid_type');
}

function text(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidType(param, 'a string or an array');
  return content
    .map((part, i) => {
      if (!isRecord(part) || typeof part['type'] !== 'string') throw invalidType(`${param}[${i}]`, 'a content part');
      if (part['type'] === 'refusal') return String(part['refusal'] ?? '');
      return typeof part['text'] === 'string' ? part['text'] : '';
    })
    .join('\n');
}

export function convertResponsesRequest(body: unknown): ResponsesRequest {
  if (!isRecord(body)) throw invalidType('body', 'an object');
  if (typeof body['model'] !== 'string') throw new OpenAiRequestError("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (body['previous_response_id'] !== undefined && body['previous_response_id'] !== null) {
    throw new OpenAiRequestError(`Previous response with id '${String(body['previous_response_id'])}' not found.`, 'previous_response_id', 'previous_response_not_found');
  }
  const customTools = new Set<string>();
  const namespaces = new Map<string, string>();
  const tools = convertTools(body['tools'], customTools, namespaces);
  const messages: NeutralMessage[] = [];
  if (typeof body['instructions'] === 'string') messages.push({ role: 'system', text: body['instructions'] });
  convertInput(body['input'], messages);
  const reasoning = isRecord(body['reasoning']) ? body['reasoning'] : {};
  const include = Array.isArray(body['include']) ? body['include'] : [];
  if (include.includes('reasoning.encrypted_content') && !reasons(String(body['model']))) {
    // OpenAI's (and Azure's) answer for a model without reasoning, word for word.
    throw new OpenAiRequestError('Encrypted content is not supported with this model.', 'include', 'unsupported_parameter');
  }
  const max = body['max_output_tokens'];
  if (max !== undefined && max !== null && (typeof max !== 'number' || !Number.isInteger(max) || max < 16)) {
    throw new OpenAiRequestError(`Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${String(max)} instead.`, 'max_output_tokens', 'integer_below_min_value');
  }
  return {
    neutral: {
      model: body['model'],
      messages,
      tools,
      toolChoice: toolChoice(body['tool_choice'], tools.length > 0),
      maxTokens: typeof max === 'number' ? max : undefined,
      stream: body['stream'] === true,
      parallelToolCalls: body['parallel_tool_calls'] === false ? false : undefined,
      thinkingEnabled: typeof reasoning['effort'] === 'string' && reasoning['effort'] !== 'none',
    },
    customTools,
    namespaces,
    includeEncrypted: include.includes('reasoning.encrypted_content'),
    cache: readPromptCacheOptions(body),
  };
}

function convertTools(value: unknown, customTools: Set<string>, namespaces: Map<string, string>): NeutralTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType('tools', 'an array');
  const tools: NeutralTool[] = [];
  const add = (tool: Record<string, unknown>, param: string): void => {
    if (typeof tool['name'] !== 'string') throw new OpenAiRequestError(`Missing required parameter: '${param}.name'.`, `${param}.name`, 'missing_required_parameter');
    if (tool['type'] === 'function') tools.push({ name: tool['name'], parameters: tool['parameters'] });
    if (tool['type'] === 'custom') {
      customTools.add(tool['name']);
      tools.push({ name: tool['name'], parameters: { type: 'object', properties: { input: { type: 'string' } } } });
    }
  };
  value.forEach((tool, i) => {
    if (!isRecord(tool)) throw invalidType(`tools[${i}]`, 'an object');
    if (tool['type'] === 'namespace' && Array.isArray(tool['tools'])) {
      tool['tools'].forEach((inner, j) => {
        if (!isRecord(inner)) return;
        add(inner, `tools[${i}].tools[${j}]`);
        if (typeof tool['name'] === 'string') namespaces.set(String(inner['name']), tool['name']);
      });
    }
    else if (tool['type'] === 'function' || tool['type'] === 'custom') add(tool, `tools[${i}]`);
  });
  return tools;
}

function toolChoice(value: unknown, hasTools: boolean): NeutralToolChoice {
  if (value === undefined || value === null) return hasTools ? 'auto' : 'none';
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && (value['type'] === 'function' || value['type'] === 'custom') && typeof value['name'] === 'string') return { name: value['name'] };
  return 'auto';
}

function convertInput(input: unknown, messages: NeutralMessage[]): void {
  if (typeof input === 'string') {
    messages.push({ role: 'user', text: input });
    return;
  }
  if (!Array.isArray(input)) throw invalidType('input', 'a string or an array');
  const calls = new Set<string>();
  input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (!isRecord(item)) throw invalidType(param, 'an object');
    const type = item['type'] ?? 'message';
    if (type === 'message') {
      const role = item['role'];
      const content = text(item['content'], `${param}.content`);
      if (role === 'assistant') messages.push({ role: 'assistant', text: content });
      else messages.push({ role: role === 'user' ? 'user' : 'system', text: content });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const callId = String(item['call_id']);
      calls.add(callId);
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant') last.toolCallIds = [...(last.toolCallIds ?? []), callId];
      else messages.push({ role: 'assistant', text: '', toolCallIds: [callId] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const callId = String(item['call_id']);
      if (!calls.has(callId)) throw new OpenAiRequestError(`No tool call found for function call output with call_id ${callId}.`, param);
      messages.push({ role: 'tool', text: '', toolResults: [{ toolCallId: callId, text: text(item['output'], `${param}.output`) }] });
    } else if (type === 'reasoning') {
      checkReasoning(item, param);
    } else if (type === 'item_reference') {
      throw new OpenAiRequestError(`Item with id '${String(item['id'])}' not found. Items are not persisted when \`store\` is set to false.`, `${param}.id`);
    }
  });
}

/**
 * Reasoning goes back exactly as it came: its encrypted content signs its summary. Like OpenAI's,
 * it stands on its own, without the item's id: Codex replays reasoning with no id at all.
 */
function checkReasoning(item: Record<string, unknown>, param: string): void {
  const encrypted = item['encrypted_content'];
  if (typeof encrypted !== 'string') throw new OpenAiRequestError(`Item with id '${String(item['id'])}' not found. Items are not persisted when \`store\` is set to false.`, `${param}.id`);
  if (!verifyThinkingSignature('openai-responses', reasoningSigned(item), encrypted)) {
    throw new OpenAiRequestError('The encrypted content for this reasoning item could not be verified.', `${param}.encrypted_content`, 'invalid_encrypted_content');
  }
}

/** What a reasoning item's encrypted content signs: its summary text. */
export function reasoningSigned(item: Record<string, unknown>): string {
  return Array.isArray(item['summary']) ? item['summary'].map((p) => (isRecord(p) ? String(p['text'] ?? '') : '')).join('\n\n') : '';
}

/**
 * Whether OpenAI's model reasons: the gpt-4 families and the chat snapshots of gpt-5 do not, and
 * refuse reasoning parameters.
 */
function reasons(model: string): boolean {
  return !/^(gpt-3\.5|gpt-4|chatgpt-4o|gpt-5(\.\d+)?-chat)/.test(model);
}
