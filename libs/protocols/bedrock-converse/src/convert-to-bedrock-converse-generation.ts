/**
 * Thinking, the output cap and sampling for a Converse body: `inferenceConfig` (every model) and
 * what goes in `additionalModelRequestFields` for Claude (`thinking`, `top_k`), decided together
 * because Claude ties them. Claude on Converse keeps Anthropic's rules, applied as the Anthropic
 * encoder applies them and with the same warnings: a budget of at least 1024 below the output cap;
 * while thinking no temperature or top_k, top_p of at least 0.95, no forced tool; and a history
 * whose last tool-calling turn lacks its Bedrock-signed reasoning is refused, so thinking goes.
 */
import type { CanonicalRequest, Converted, TranslationWarning } from '@rosetta/canonical';
import { claudeThinkingBudget, CLAUDE_MIN_TOP_P_WITH_THINKING, compact, type JsonObject } from '@rosetta/protocols/common';

export interface ConverseGeneration {
  inferenceConfig?: JsonObject;
  additionalModelRequestFields?: JsonObject;
}


export function convertToBedrockConverseGeneration({
  request,
  claude,
  reasoning,
  defaultMaxTokens,
  unsignedToolTurn,
}: {
  request: CanonicalRequest;
  /** The model is Claude, which takes thinking and top_k in additionalModelRequestFields. */
  claude: boolean;
  /** The endpoint reasons (registry); undefined when unknown. */
  reasoning: boolean | undefined;
  /** The output cap when the request names none and thinking needs one. */
  defaultMaxTokens: number;
  /** The last tool-calling assistant turn does not start with Bedrock-signed reasoning. */
  unsignedToolTurn: boolean;
}): Converted<ConverseGeneration> {
  const warnings: TranslationWarning[] = [];
  const budget = thinkingBudget(request, claude, reasoning, unsignedToolTurn, warnings);
  const sampling = budget === undefined ? plainSampling(request, claude, warnings) : thinkingSampling(request, warnings);
  const inferenceConfig = compact<JsonObject>({
    maxTokens: budget === undefined ? request.maxOutputTokens : capAbove(budget, request.maxOutputTokens, defaultMaxTokens, warnings),
    temperature: sampling.temperature,
    topP: sampling.topP,
    stopSequences: request.stopSequences && request.stopSequences.length > 0 ? request.stopSequences : undefined,
  });
  const additional = compact<JsonObject>({
    thinking: budget === undefined ? undefined : { type: 'enabled', budget_tokens: budget },
    top_k: sampling.topK,
  });
  return {
    value: compact({
      inferenceConfig: Object.keys(inferenceConfig).length > 0 ? inferenceConfig : undefined,
      additionalModelRequestFields: Object.keys(additional).length > 0 ? additional : undefined,
    }),
    warnings,
  };
}

/**
 * The budget to think with, or undefined when thinking is off or has to be. Only Claude is told
 * how to think here; other families on Bedrock reason (or not) as they are configured to.
 */
function thinkingBudget(request: CanonicalRequest, claude: boolean, reasoning: boolean | undefined, unsignedToolTurn: boolean, warnings: TranslationWarning[]): number | undefined {
  const { thinking, toolChoice } = request;
  if (!thinking?.enabled) return undefined;
  if (reasoning === false) {
    warnings.push({ feature: 'thinking', message: 'This model does not reason; thinking dropped.' });
    return undefined;
  }
  if (!claude) {
    warnings.push({ feature: 'thinking', message: 'Bedrock Converse takes thinking settings for Claude only; this model reasons as it is configured to.' });
    return undefined;
  }
  if (unsignedToolTurn) {
    warnings.push({ feature: 'thinking', message: 'The last tool-calling turn has no Bedrock-signed reasoning, which Claude requires; thinking disabled.' });
    return undefined;
  }
  if (toolChoice?.type === 'required' || toolChoice?.type === 'tool') {
    warnings.push({ feature: 'thinking', message: 'Claude cannot think while a tool call is forced; thinking disabled.' });
    return undefined;
  }
  return claudeThinkingBudget(thinking, 'Claude', warnings);
}

/** The cap counts thinking too, so an answer still fits: the cap asked for comes on top of the budget. */
function capAbove(budget: number, asked: number | undefined, defaultMaxTokens: number, warnings: TranslationWarning[]): number {
  const cap = asked ?? defaultMaxTokens;
  if (cap > budget) return cap;
  if (asked !== undefined) warnings.push({ feature: 'max_tokens', message: `max_tokens raised from ${asked} to ${budget + asked} to exceed the thinking budget of ${budget}.` });
  return budget + cap;
}

interface Sampling {
  temperature?: number;
  topP?: number;
  topK?: number;
}

function plainSampling(request: CanonicalRequest, claude: boolean, warnings: TranslationWarning[]): Sampling {
  const { temperature, topK } = request;
  const sampling: Sampling = { topP: request.topP };
  if (temperature !== undefined) {
    // Claude takes 0 to 1 and refuses more; other families' ranges are theirs to enforce.
    sampling.temperature = claude ? Math.min(1, Math.max(0, temperature)) : temperature;
    if (sampling.temperature !== temperature) {
      warnings.push({ feature: 'temperature', message: `Claude takes a temperature from 0 to 1; ${temperature} was clamped to ${sampling.temperature}.` });
    }
  }
  if (topK !== undefined) {
    if (claude) sampling.topK = topK;
    else warnings.push({ feature: 'top_k', message: 'Bedrock Converse takes top_k only for Claude; dropped.' });
  }
  return sampling;
}

function thinkingSampling(request: CanonicalRequest, warnings: TranslationWarning[]): Sampling {
  if (request.temperature !== undefined) warnings.push({ feature: 'temperature', message: 'Claude refuses a temperature while thinking; dropped.' });
  if (request.topK !== undefined) warnings.push({ feature: 'top_k', message: 'Claude refuses top_k while thinking; dropped.' });
  if (request.topP === undefined) return {};
  const topP = Math.max(CLAUDE_MIN_TOP_P_WITH_THINKING, request.topP);
  if (topP !== request.topP) warnings.push({ feature: 'top_p', message: `Claude takes top_p of at least 0.95 while thinking; ${request.topP} was raised.` });
  return { topP };
}
