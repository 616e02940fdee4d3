/**
 * Canonical request → Bedrock Converse body. The model is in the URL, not the body, and there is
 * no same-protocol fast path: no client speaks Converse.
 *
 * Converse's common fields (`system`, `messages`, `inferenceConfig`, `toolConfig`) reach every
 * model it serves; what a model family takes beyond them goes in `additionalModelRequestFields`
 * (for Claude: thinking and top_k). Converse has no JSON mode in its common fields, so, as for
 * Anthropic, the model is asked in the system prompt and a warning says so.
 */
import type { CanonicalRequest, Converted, TranslationWarning } from '@rosetta/canonical';
import { compact, withAutoCacheHints } from '@rosetta/protocols/common';
import { convertToBedrockConverseGeneration } from './convert-to-bedrock-converse-generation';
import { convertToBedrockConverseMessages, type ConverseBlock, type ConverseConversation } from './convert-to-bedrock-converse-messages';
import { convertToBedrockConverseTools } from './convert-to-bedrock-converse-tools';

const JSON_ONLY_INSTRUCTION = 'Respond with a single valid JSON object and nothing else: no prose, no code fences.';

export function convertToBedrockConverseRequest({
  request,
  upstreamModel,
  reasoning,
  defaultMaxTokens,
}: {
  request: CanonicalRequest;
  /** Bedrock's model id or inference profile (`anthropic.claude-…`, `us.anthropic.claude-…`, an ARN). */
  upstreamModel: string;
  /** The endpoint reasons (registry): thinking is asked for only then. */
  reasoning: boolean | undefined;
  /** The output cap when the request names none and thinking needs one. */
  defaultMaxTokens: number;
}): Converted<Record<string, unknown>> {
  // Bedrock caches prompts for Claude and Nova models only; a cachePoint elsewhere is refused.
  if (/(^|[.:/])(anthropic\.claude|amazon\.nova)/.test(upstreamModel)) request = withAutoCacheHints(request);
  const warnings: TranslationWarning[] = [];
  const toolConfig = convertToBedrockConverseTools(request, warnings);
  const conversation = convertToBedrockConverseMessages(request.messages, { toolBlocks: toolConfig !== undefined });
  warnings.push(...conversation.warnings);
  const generation = convertToBedrockConverseGeneration({
    request,
    claude: /(^|[.:/])anthropic\.claude/.test(upstreamModel),
    reasoning,
    defaultMaxTokens,
    unsignedToolTurn: lastToolTurnUnsigned(conversation.value.messages),
  });
  warnings.push(...generation.warnings);
  const system = [...conversation.value.system, ...jsonInstruction(request, warnings)];
  const body: Record<string, unknown> = compact({
    system: system.length > 0 ? system : undefined,
    messages: conversation.value.messages,
    inferenceConfig: generation.value.inferenceConfig,
    toolConfig,
    additionalModelRequestFields: generation.value.additionalModelRequestFields,
  });
  warnings.push(...droppedFields(request));
  return { value: body, warnings };
}

/** The last assistant turn calls a tool but does not start with reasoning (signed or redacted). */
function lastToolTurnUnsigned(messages: ConverseConversation['messages']): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    if (!message.content.some((block) => 'toolUse' in block)) return false;
    return !('reasoningContent' in (message.content[0] ?? {}));
  }
  return false;
}

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
