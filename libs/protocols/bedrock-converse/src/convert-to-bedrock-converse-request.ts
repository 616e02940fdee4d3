/**
 * Canonical request → Bedrock Converse body. The model is in the URL, not the body, and there is
 * no same-protocol fast path: no client speaks Converse.
 *
 * Converse's common fields (`inferenceConfig`, `toolConfig`) reach every model it serves; what a
 * model family takes beyond them goes in `additionalModelRequestFields` — for Claude, thinking
 * (`thinking: {type: "enabled", budget_tokens}`) and `top_k`. Claude on Converse keeps Anthropic's
 * rules for thinking (a budget of at least 1024 below the output cap, no temperature or top_k, no
 * forced tool) and they are applied the same way, with the same warnings.
 */
import type { CanonicalRequest, Converted, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import { compact, type JsonObject } from '@rosetta/protocols/common';
import { convertToBedrockConverseMessages, type ConverseBlock } from './convert-to-bedrock-converse-messages';

const JSON_ONLY_INSTRUCTION = 'Respond with a single valid JSON object and nothing else: no prose, no code fences.';
const MIN_BUDGET = 1024;
const EFFORT_BUDGETS: Readonly<Record<string, number>> = { none: 1024, minimal: 1024, low: 1024, medium: 4096, high: 16384, xhigh: 16384, max: 16384 };
const DEFAULT_EFFORT_BUDGET = 4096;

export function convertToBedrockConverseRequest({
  request,
  upstreamModel,
  reasoning,
  defaultMaxTokens,
}: {
  request: CanonicalRequest;
  upstreamModel: string;
  /** The endpoint reasons (registry): thinking is asked for only then. */
  reasoning: boolean | undefined;
  /** The output cap when the request names none and thinking needs one. */
  defaultMaxTokens: number;
}): Converted<Record<string, unknown>> {
  const conversation = convertToBedrockConverseMessages(request.messages);
  const warnings: TranslationWarning[] = [...conversation.warnings];
  const claude = /(^|[.:/])anthropic\.claude/.test(upstreamModel);
  const budget = thinkingBudget(request, claude, reasoning, conversation.value.messages, warnings);
  let maxTokens = request.maxOutputTokens;
  if (budget !== undefined) {
    const asked = maxTokens ?? defaultMaxTokens;
    maxTokens = asked > budget ? asked : budget + asked;
    if (request.maxOutputTokens !== undefined && maxTokens !== request.maxOutputTokens) {
      warnings.push({ feature: 'max_tokens', message: `max_tokens raised from ${request.maxOutputTokens} to ${maxTokens} to exceed the thinking budget of ${budget}.` });
    }
  }
  const thinking = budget !== undefined;
  const additional = compact<JsonObject>({
    thinking: thinking ? { type: 'enabled', budget_tokens: budget } : undefined,
    top_k: request.topK !== undefined && claude && !thinking ? request.topK : undefined,
  });
  if (request.topK !== undefined && (!claude || thinking)) warnings.push({ feature: 'top_k', message: thinking ? 'Claude refuses top_k while thinking; dropped.' : 'Bedrock Converse takes top_k only for Claude; dropped.' });
  const inferenceConfig = compact<JsonObject>({
    maxTokens,
    temperature: thinking ? undefined : request.temperature,
    topP: request.topP === undefined ? undefined : thinking ? Math.max(0.95, request.topP) : request.topP,
    stopSequences: request.stopSequences && request.stopSequences.length > 0 ? request.stopSequences : undefined,
  });
  if (thinking && request.temperature !== undefined) warnings.push({ feature: 'temperature', message: 'Claude refuses a temperature while thinking; dropped.' });
  const body: Record<string, unknown> = compact({
    system: nonEmpty([...conversation.value.system, ...jsonInstruction(request, warnings)]),
    messages: conversation.value.messages,
    inferenceConfig: Object.keys(inferenceConfig).length > 0 ? inferenceConfig : undefined,
    toolConfig: toolConfig(request, warnings),
    additionalModelRequestFields: Object.keys(additional).length > 0 ? additional : undefined,
  });
  warnings.push(...droppedFields(request));
  return { value: body, warnings };
}

function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}

/**
 * Thinking for Claude on Converse, when the endpoint reasons; other families on Bedrock reason (or
 * not) on their own. Off when a tool call is forced, or when the last tool-calling turn carries no
 * reasoning Bedrock signed (Claude refuses that history with thinking on).
 */
function thinkingBudget(request: CanonicalRequest, claude: boolean, reasoning: boolean | undefined, messages: { role: string; content: ConverseBlock[] }[], warnings: TranslationWarning[]): number | undefined {
  const { thinking, toolChoice } = request;
  if (!thinking?.enabled || reasoning === false) return undefined;
  if (!claude) {
    warnings.push({ feature: 'thinking', message: 'Bedrock Converse takes thinking settings for Claude only; this model reasons as it is configured to.' });
    return undefined;
  }
  if (toolChoice?.type === 'required' || toolChoice?.type === 'tool') {
    warnings.push({ feature: 'thinking', message: 'Claude cannot think while a tool call is forced; thinking disabled.' });
    return undefined;
  }
  if (lastToolTurnUnsigned(messages)) {
    warnings.push({ feature: 'thinking', message: 'The last tool-calling turn has no Bedrock-signed reasoning, which Claude requires; thinking disabled.' });
    return undefined;
  }
  const requested = thinking.budgetTokens ?? EFFORT_BUDGETS[thinking.effort ?? ''] ?? DEFAULT_EFFORT_BUDGET;
  if (requested < MIN_BUDGET) warnings.push({ feature: 'thinking', message: `Thinking budget raised from ${requested} to Claude's minimum of ${MIN_BUDGET}.` });
  return Math.max(MIN_BUDGET, requested);
}

function lastToolTurnUnsigned(messages: { role: string; content: ConverseBlock[] }[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    if (!message.content.some((block) => 'toolUse' in block)) return false;
    return !('reasoningContent' in (message.content[0] ?? {}));
  }
  return false;
}

/** Converse has no JSON mode in its common fields: the model is asked in the system prompt. */
function jsonInstruction(request: CanonicalRequest, warnings: TranslationWarning[]): ConverseBlock[] {
  const format = request.responseFormat;
  if (format?.type === 'json_object') {
    warnings.push({ feature: 'response_format', message: 'Bedrock Converse has no JSON mode; the model was asked in the system prompt for JSON only.' });
    return [{ text: JSON_ONLY_INSTRUCTION }];
  }
  if (format?.type === 'json_schema') {
    warnings.push({ feature: 'response_format', message: 'Bedrock Converse does not enforce a JSON schema; the model was given the schema in the system prompt.' });
    return [{ text: `${JSON_ONLY_INSTRUCTION} It must match this JSON Schema: ${JSON.stringify(format.schema)}` }];
  }
  return [];
}

/** Tools as `toolSpec`s. Converse has no "none": with tool_choice none the tools are left out, which is what none means. */
function toolConfig(request: CanonicalRequest, warnings: TranslationWarning[]): JsonObject | undefined {
  if (!request.tools || request.tools.length === 0) return undefined;
  const choice = request.toolChoice;
  if (choice?.type === 'none') return undefined;
  if (request.parallelToolCalls === false) warnings.push({ feature: 'parallel_tool_calls', message: 'Bedrock Converse cannot be told to call one tool at a time; the model may call several.' });
  const tools: ConverseBlock[] = request.tools.map(toToolSpec);
  if (request.tools.some((tool) => tool.strict)) warnings.push({ feature: 'strict', message: 'Bedrock Converse does not enforce tool schemas strictly; strict dropped.' });
  const toolChoice = choice?.type === 'required' ? { any: {} } : choice?.type === 'tool' ? { tool: { name: choice.name } } : choice?.type === 'auto' ? { auto: {} } : undefined;
  return compact({ tools, toolChoice });
}

function toToolSpec(tool: ToolDefinition): ConverseBlock {
  // Converse requires an object schema; a tool without parameters takes an empty object.
  const schema = tool.parameters ? { ...tool.parameters, type: 'object' } : { type: 'object', properties: {} };
  return { toolSpec: compact({ name: tool.name, description: tool.description, inputSchema: { json: schema } }) };
}

function droppedFields(request: CanonicalRequest): TranslationWarning[] {
  const warnings: TranslationWarning[] = [];
  const drop = (feature: string, what: string) => warnings.push({ feature, message: `Bedrock Converse has no ${what}; dropped.` });
  if (request.seed !== undefined) drop('seed', 'seed');
  if (request.frequencyPenalty !== undefined) drop('frequency_penalty', 'frequency penalty');
  if (request.presencePenalty !== undefined) drop('presence_penalty', 'presence penalty');
  if (request.candidateCount !== undefined && request.candidateCount > 1) {
    warnings.push({ feature: 'candidate_count', message: 'Bedrock Converse returns one candidate; only the first is produced.' });
  }
  return warnings;
}
