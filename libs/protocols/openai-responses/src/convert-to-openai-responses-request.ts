/**
 * Canonical request → Responses body for an upstream that speaks it (`protocol:
 * "openai-responses"`). The gateway keeps conversation state itself, so the upstream is always
 * called statelessly (`store: false`), with encrypted reasoning included for an endpoint that
 * reasons, which then travels with the conversation as it does for Codex. An endpoint that does
 * not reason gets no reasoning parameters at all: OpenAI (and Azure) refuse them with a 400.
 *
 * Fast path: a request that came in as a Responses request is forwarded as the client sent it
 * (its stored conversation already expanded), so item and tool types Rosetta does not model still
 * reach the upstream.
 */
import { ROUTING_FIELD_NAMES, type CanonicalRequest, type Converted, type ResponseFormat, type ToolChoice, type ToolDefinition, type TranslationWarning } from '@rosetta/canonical';
import { compact, isRecord, isString, isStringArray, withoutGatewayTags, type JsonObject } from '@rosetta/protocols/common';
import { reasoningEffortFor, withPromptCacheKey } from '@rosetta/protocols/openai-chat';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input';
import { isOurItemId } from './responses-ids';
import { ToolNames } from './tool-names';

/** How a signature of another provider looks once wrapped (provider-signature.ts). */
const WRAPPED = 'rosetta-sig.';

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/** Fields the Responses API does not take, with what happens to them. */
const DROPPED: ReadonlyArray<[keyof CanonicalRequest, string]> = [
  ['topK', 'The Responses API has no top_k; dropped.'],
  ['stopSequences', 'The Responses API has no stop sequences; dropped.'],
  ['seed', 'The Responses API has no seed; dropped.'],
  ['candidateCount', 'The Responses API returns one answer; n dropped.'],
];

export function convertToOpenAIResponsesRequest({ request, upstreamModel, reasoning }: { request: CanonicalRequest; upstreamModel: string; reasoning?: boolean }): Converted<JsonObject> {
  if (request.passthrough?.protocol === 'openai-responses') {
    const forwarded = forwardPassthrough(request.passthrough.body, upstreamModel, request.stream, reasoning);
    return { ...forwarded, value: withPromptCacheKey(forwarded.value, request) };
  }
  const tools = new ToolNames(request.tools);
  const input = convertToOpenAIResponsesInput({ messages: request.messages, tools });
  const warnings: TranslationWarning[] = [...input.warnings];
  for (const [field, message] of DROPPED) if (request[field] !== undefined && !(field === 'candidateCount' && request.candidateCount === 1)) warnings.push({ feature: String(field), message });
  const effort = request.thinking && reasoningEffortFor(request.thinking, reasoning, warnings, 'The Responses API');
  const body = compact({
    model: upstreamModel,
    input: input.value,
    tools: request.tools && toTools(request.tools),
    tool_choice: request.toolChoice && toToolChoice(request.toolChoice, tools),
    parallel_tool_calls: request.parallelToolCalls,
    max_output_tokens: request.maxOutputTokens,
    temperature: request.temperature,
    top_p: request.topP,
    presence_penalty: request.presencePenalty,
    frequency_penalty: request.frequencyPenalty,
    text: request.responseFormat && { format: toTextFormat(request.responseFormat) },
    reasoning: effort === undefined ? undefined : compact({ effort, summary: effort === 'none' ? undefined : 'auto' }),
    safety_identifier: request.user,
    prompt_cache_key: request.promptCacheKey,
    store: false,
    include: reasoning === true ? [ENCRYPTED_REASONING] : undefined,
    stream: request.stream ? true : undefined,
  });
  return { value: body, warnings };
}

function forwardPassthrough(original: JsonObject, upstreamModel: string, stream: boolean, reasoning: boolean | undefined): Converted<JsonObject> {
  const body: JsonObject = { ...withoutGatewayTags(original, true) };
  const warnings: TranslationWarning[] = [];
  for (const name of ROUTING_FIELD_NAMES) delete body[name];
  // The gateway's own conversation state: the upstream neither keeps it nor knows our ids.
  delete body['previous_response_id'];
  body['model'] = upstreamModel;
  body['store'] = false;
  const include = isStringArray(body['include']) ? body['include'] : [];
  if (reasoning === false) {
    if (body['reasoning'] !== undefined && body['reasoning'] !== null) warnings.push({ feature: 'thinking', message: 'This model does not reason; reasoning dropped.' });
    delete body['reasoning'];
    if (body['include'] !== undefined) body['include'] = include.filter((entry) => entry !== ENCRYPTED_REASONING);
  } else if (reasoning === true) {
    body['include'] = include.includes(ENCRYPTED_REASONING) ? include : [...include, ENCRYPTED_REASONING];
  }
  if (stream) body['stream'] = true;
  else delete body['stream'];
  delete body['stream_options'];
  if (Array.isArray(body['input'])) body['input'] = body['input'].flatMap(forUpstream);
  return { value: body, warnings };
}

/**
 * An input item as OpenAI may receive it: reasoning another provider issued (it travelled in
 * `encrypted_content`, wrapped) has no place there, and the ids the gateway gave items it stored
 * are not OpenAI's. Everything else goes as the client sent it.
 */
function forUpstream(item: unknown): unknown[] {
  if (!isRecord(item)) return [item];
  if (item['type'] === 'reasoning' && (!isString(item['encrypted_content']) || item['encrypted_content'].startsWith(WRAPPED))) return [];
  if (isString(item['id']) && isOurItemId(item['id'])) {
    const { id: _, ...rest } = item;
    return [rest];
  }
  return [item];
}

function toTools(tools: readonly ToolDefinition[]): JsonObject[] {
  const out: JsonObject[] = [];
  const groups = new Map<string, JsonObject[]>();
  const names = new ToolNames(tools);
  for (const tool of tools) {
    const name = names.wire(tool.name).name;
    const wire = tool.custom
      ? compact({ type: 'custom', name, description: tool.description, format: tool.custom.format })
      : compact({ type: 'function', name, description: tool.description, parameters: tool.parameters ?? { type: 'object', properties: {} }, strict: tool.strict ?? false });
    if (!tool.namespace) {
      out.push(wire);
      continue;
    }
    let group = groups.get(tool.namespace.name);
    if (!group) {
      group = [];
      groups.set(tool.namespace.name, group);
      out.push(compact({ type: 'namespace', name: tool.namespace.name, description: tool.namespace.description ?? '', tools: group }));
    }
    group.push(wire);
  }
  return out;
}

function toToolChoice(choice: ToolChoice, tools: ToolNames): string | JsonObject {
  if (choice.type !== 'tool') return choice.type;
  const wire = tools.wire(choice.name);
  return compact({ type: wire.custom ? 'custom' : 'function', name: wire.name, namespace: wire.namespace });
}

function toTextFormat(format: ResponseFormat): JsonObject {
  if (format.type !== 'json_schema') return { type: format.type };
  return compact({ type: 'json_schema', name: format.name ?? 'response', description: format.description, schema: format.schema, strict: format.strict });
}
