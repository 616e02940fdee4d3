/**
 * Canonical request → Anthropic Messages body for an upstream.
 *
 * Fast path: a request that came in as dialect B is forwarded as the client sent it, with only the
 * model, `stream` and the routing fields rewritten, so fields Rosetta does not model (server
 * tools, `container`, `service_tier`, citations) still reach Anthropic. Only the carriers of other
 * providers' tool-call signatures are taken out: they are no thinking Anthropic issued.
 */
import {
  ROUTING_FIELD_NAMES,
  type CanonicalRequest,
  type Converted,
  type ToolDefinition,
  type TranslationWarning,
} from '@rosetta/canonical';
import type { OutputConfig, TextBlockParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { compact, withoutGatewayTags } from '@rosetta/protocols/common';
import { withoutForeignReasoning } from './anthropic-messages-call-signature';
import { placeAutoBreakpoints } from './auto-cache-breakpoints';
import { toCacheControl } from './convert-to-anthropic-messages-content';
import { convertToAnthropicMessagesMessages } from './convert-to-anthropic-messages-messages';
import {
  UNSIGNED_TOOL_TURN_WARNING,
  convertToAnthropicMessagesThinking,
  lastToolTurnUnsigned,
  thinkingOn,
} from './convert-to-anthropic-messages-thinking';

const JSON_ONLY_INSTRUCTION = 'Respond with a single valid JSON object and nothing else: no prose, no code fences.';

export function convertToAnthropicMessagesRequest({
  request,
  upstreamModel,
  defaultMaxTokens,
}: {
  request: CanonicalRequest;
  upstreamModel: string;
  /** The output cap when the request names none: Anthropic requires one. */
  defaultMaxTokens: number;
}): Converted<Record<string, unknown>> {
  if (request.passthrough?.protocol === 'anthropic') return withAutoBreakpoints(forwardPassthrough(request.passthrough.body, upstreamModel, request.stream), request);
  const conversation = convertToAnthropicMessagesMessages({ messages: request.messages });
  const { system, messages } = conversation.value;
  const generation = convertToAnthropicMessagesThinking({ request, defaultMaxTokens, unsignedToolTurn: lastToolTurnUnsigned(messages) });
  const warnings: TranslationWarning[] = [...conversation.warnings, ...generation.warnings];
  const body: Record<string, unknown> = compact({
    model: upstreamModel,
    ...generation.value,
    system: nonEmpty([...system, ...jsonObjectInstruction(request, warnings)]),
    messages,
    tools: request.tools?.map(toTool),
    tool_choice: toToolChoice(request),
    stop_sequences: request.stopSequences,
    output_config: toOutputConfig(request),
    metadata: request.user === undefined ? undefined : { user_id: request.user },
    stream: request.stream ? true : undefined,
  });
  warnings.push(...droppedFields(request));
  return withAutoBreakpoints({ value: body, warnings }, request);
}

function withAutoBreakpoints(converted: Converted<Record<string, unknown>>, request: CanonicalRequest): Converted<Record<string, unknown>> {
  if (request.autoPromptCache) placeAutoBreakpoints(converted.value);
  return converted;
}

function forwardPassthrough(original: Record<string, unknown>, upstreamModel: string, stream: boolean): Converted<Record<string, unknown>> {
  // Anthropic's metadata takes user_id alone: the gateway's tags stay here.
  const body: Record<string, unknown> = { ...withoutGatewayTags(withoutForeignReasoning(original), false) };
  for (const name of ROUTING_FIELD_NAMES) delete body[name];
  body['model'] = upstreamModel;
  body['stream'] = stream;
  const warnings: TranslationWarning[] = [];
  // A session that switched models mid tool loop: once another provider's reasoning is taken out,
  // the last tool-calling turn has no thinking Anthropic signed, and with thinking on Anthropic
  // refuses the whole request. Answering without thinking is what the rebuilt path does too.
  if (thinkingOn(body['thinking']) && lastToolTurnUnsigned(body['messages'])) {
    body['thinking'] = { type: 'disabled' };
    warnings.push(UNSIGNED_TOOL_TURN_WARNING);
  }
  return { value: body, warnings };
}


function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}

/** Anthropic has no JSON mode; an instruction is the closest it comes. */
function jsonObjectInstruction(request: CanonicalRequest, warnings: TranslationWarning[]): TextBlockParam[] {
  if (request.responseFormat?.type !== 'json_object') return [];
  warnings.push({ feature: 'response_format', message: 'Anthropic has no JSON mode; the model was asked in the system prompt for JSON only.' });
  return [{ type: 'text', text: JSON_ONLY_INSTRUCTION }];
}

function toTool(tool: ToolDefinition): Tool {
  return compact<Tool>({
    name: tool.name,
    description: tool.description,
    // Anthropic requires an object schema; a tool without parameters takes an empty object.
    input_schema: tool.parameters ? { ...tool.parameters, type: 'object' } : { type: 'object', properties: {} },
    strict: tool.strict,
    cache_control: toCacheControl(tool.cache),
  });
}

/** Without tools there is nothing to choose from, and Anthropic refuses a choice on its own. */
function toToolChoice(request: CanonicalRequest): ToolChoice | undefined {
  if (!request.tools || request.tools.length === 0) return undefined;
  const serial = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  const choice = request.toolChoice;
  switch (choice?.type) {
    case undefined:
      return request.parallelToolCalls === false ? { type: 'auto', ...serial } : undefined;
    case 'auto':
      return { type: 'auto', ...serial };
    case 'required':
      return { type: 'any', ...serial };
    case 'tool':
      return { type: 'tool', name: choice.name, ...serial };
    case 'none':
      return { type: 'none' };
  }
}

function toOutputConfig(request: CanonicalRequest): OutputConfig | undefined {
  const format = request.responseFormat;
  if (format?.type !== 'json_schema') return undefined;
  return { format: { type: 'json_schema', schema: format.schema } };
}

function droppedFields(request: CanonicalRequest): TranslationWarning[] {
  const warnings: TranslationWarning[] = [];
  const drop = (feature: string, what: string) => warnings.push({ feature, message: `Anthropic has no ${what}; dropped.` });
  if (request.seed !== undefined) drop('seed', 'seed');
  if (request.frequencyPenalty !== undefined) drop('frequency_penalty', 'frequency penalty');
  if (request.presencePenalty !== undefined) drop('presence_penalty', 'presence penalty');
  if (request.candidateCount !== undefined && request.candidateCount > 1) {
    warnings.push({ feature: 'candidate_count', message: 'Anthropic returns one candidate; only the first is produced.' });
  }
  return warnings;
}
