import { isRecord } from '../http-io';

/**
 * The checks Bedrock makes on a Converse body beyond its shape, in Bedrock's words, so a gateway's
 * translation bugs surface as the same 400 ValidationExceptions. Each returns the first problem's
 * message, or undefined.
 */

const IMAGE_FORMATS = ['gif', 'jpeg', 'png', 'webp'];
const DOCUMENT_FORMATS = ['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md'];
const TOOL_RESULT_MEMBERS = ['text', 'json', 'image', 'document', 'video'];
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Letters, digits, single whitespace, hyphens, parentheses and square brackets. */
const DOCUMENT_NAME = /^(?!.*\s\s)[A-Za-z0-9\s\-()[\]]+$/;
/** Claude's least thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/** Bedrock's (Coral's) form for a member outside its constraint. */
function constraint(value: unknown, at: string, rule: string): string {
  return `1 validation error detected: Value '${String(value)}' at '${at}' failed to satisfy constraint: Member must ${rule}`;
}

function range(inference: Record<string, unknown>, field: string, min: number, max: number | undefined): string | undefined {
  const value = inference[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) return `inferenceConfig.${field} must be a number.`;
  if (value < min) return constraint(value, `inferenceConfig.${field}`, `have value greater than or equal to ${min}`);
  if (max !== undefined && value > max) return constraint(value, `inferenceConfig.${field}`, `have value less than or equal to ${max}`);
  return undefined;
}

export function inferenceProblem(inference: Record<string, unknown>): string | undefined {
  const maxTokens = inference['maxTokens'];
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens))) return 'inferenceConfig.maxTokens must be an integer.';
  const stops = inference['stopSequences'];
  if (stops !== undefined && (!Array.isArray(stops) || stops.some((stop) => typeof stop !== 'string' || stop === ''))) return 'inferenceConfig.stopSequences must be a list of non-empty strings.';
  return range(inference, 'maxTokens', 1, undefined) ?? range(inference, 'temperature', 0, 1) ?? range(inference, 'topP', 0, 1);
}

function sourceProblem(value: Record<string, unknown>, at: string): string | undefined {
  const source = value['source'];
  if (isRecord(source) && isRecord(source['s3Location'])) return undefined;
  const bytes = isRecord(source) ? source['bytes'] : undefined;
  return typeof bytes === 'string' && BASE64.test(bytes) ? undefined : `${at}.source must hold base64 bytes or an s3Location.`;
}

/** An image, a document, or a tool result's content: the formats Bedrock lists, bytes in base64, a document's name. */
export function blockProblem(member: string, value: unknown, at: string): string | undefined {
  if (member === 'image' || member === 'document') {
    if (!isRecord(value)) return `${at} must be an object.`;
    const formats = member === 'image' ? IMAGE_FORMATS : DOCUMENT_FORMATS;
    if (typeof value['format'] !== 'string' || !formats.includes(value['format'])) return constraint(value['format'], `${at}.format`, `satisfy enum value set: [${formats.join(', ')}]`);
    if (member === 'document' && (typeof value['name'] !== 'string' || !DOCUMENT_NAME.test(value['name']))) {
      return 'The document file name can only contain alphanumeric characters, whitespace characters, hyphens, parentheses, and square brackets. The name can’t contain more than one consecutive whitespace character.';
    }
    return sourceProblem(value, at);
  }
  if (member === 'toolResult' && isRecord(value) && Array.isArray(value['content'])) {
    for (const [k, item] of value['content'].entries()) {
      const set = isRecord(item) ? Object.keys(item) : [];
      if (set.length !== 1 || !TOOL_RESULT_MEMBERS.includes(set[0]!)) return `${at}.content.${k} must set exactly one of ${TOOL_RESULT_MEMBERS.join(', ')}.`;
      const problem = blockProblem(set[0]!, (item as Record<string, unknown>)[set[0]!], `${at}.content.${k}.${set[0]!}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A system block sets one of text, guardContent or cachePoint. */
export function systemProblem(block: unknown, i: number): string | undefined {
  const set = isRecord(block) ? Object.keys(block) : [];
  return set.length === 1 && ['text', 'guardContent', 'cachePoint'].includes(set[0]!) ? undefined : `system.${i} must set exactly one of text, guardContent or cachePoint.`;
}

/** What the Claude rules need to know of a conversation: each assistant turn's blocks, by member. */
export interface AssistantTurnShape {
  index: number;
  members: string[];
}

export interface ClaudeThinkingInput {
  thinking: Record<string, unknown>;
  maxTokens: number | undefined;
  inference: Record<string, unknown>;
  additional: Record<string, unknown>;
  forcedTool: boolean;
  lastAssistant: AssistantTurnShape | undefined;
}

/**
 * Claude's own rules while thinking, which Bedrock passes on as "The model returned the following
 * errors: …": a budget of at least 1024 below the output cap, no temperature, top_k or low topP, no
 * forced tool, and a final tool-calling assistant turn that opens with its reasoning.
 */
export function claudeThinkingProblem(input: ClaudeThinkingInput): string | undefined {
  const budget = input.thinking['budget_tokens'];
  const model = (message: string): string => `The model returned the following errors: ${message}`;
  if (typeof budget !== 'number' || budget < MIN_THINKING_BUDGET) return model(`thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`);
  if (input.maxTokens !== undefined && input.maxTokens <= budget) return model('`max_tokens` must be greater than `thinking.budget_tokens`.');
  const temperature = input.inference['temperature'];
  if (temperature !== undefined && temperature !== 1) return model('`temperature` may only be set to 1 when thinking is enabled.');
  const topP = input.inference['topP'];
  if (typeof topP === 'number' && topP < 0.95) return model('`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.');
  if (input.additional['top_k'] !== undefined) return model('`top_k` is not supported when thinking is enabled.');
  if (input.forcedTool) return model('Thinking may not be enabled when tool_choice forces tool use.');
  const last = input.lastAssistant;
  if (!last || !last.members.includes('toolUse') || last.members[0] === 'reasoningContent') return undefined;
  return model(`messages.${last.index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${last.members[0] === 'toolUse' ? 'tool_use' : 'text'}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceding the lastmost set of \`tool_use\` and \`tool_result\` blocks). To avoid this requirement, disable \`thinking\`.`);
}
