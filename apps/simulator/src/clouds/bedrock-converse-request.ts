import { isRecord } from '../http-io';
import type { NeutralMessage, NeutralRequest, NeutralTool, NeutralToolChoice, NeutralToolResult } from '../reply-plan';
import { verifyThinkingSignature } from '../signatures';
import { blockProblem, claudeThinkingProblem, inferenceProblem, systemProblem } from './bedrock-converse-validation';

/** A request Bedrock would refuse with 400 ValidationException. */
export class ConverseRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConverseRequestError';
  }
}

const TOP_LEVEL = ['messages', 'system', 'inferenceConfig', 'toolConfig', 'guardrailConfig', 'additionalModelRequestFields', 'promptVariables', 'additionalModelResponseFieldPaths', 'requestMetadata', 'performanceConfig'];
const BLOCK_MEMBERS = ['text', 'image', 'document', 'video', 'toolUse', 'toolResult', 'guardContent', 'reasoningContent', 'cachePoint', 'citationsContent'];
const INFERENCE_FIELDS = ['maxTokens', 'temperature', 'topP', 'stopSequences'];

function invalid(message: string): ConverseRequestError {
  return new ConverseRequestError(message);
}

/** Bedrock names extraneous keys this way, whichever level they are at. */
function noExtraKeys(value: Record<string, unknown>, allowed: readonly string[]): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw invalid(`Malformed input request: extraneous key [${extra}] is not permitted, please reformat your input and try again.`);
}

/** The one member a content block sets (a union in Bedrock's model: exactly one). */
function memberOf(block: unknown, path: string): [string, unknown] {
  if (!isRecord(block)) throw invalid(`${path} must be an object.`);
  const set = Object.keys(block).filter((key) => block[key] !== undefined && block[key] !== null);
  const unknown = set.find((key) => !BLOCK_MEMBERS.includes(key));
  if (unknown !== undefined) throw invalid(`Malformed input request: extraneous key [${unknown}] is not permitted, please reformat your input and try again.`);
  if (set.length !== 1) throw invalid(`${path} must set exactly one member; it sets ${set.length}.`);
  const [name = ''] = set;
  return [name, block[name]];
}

interface Turn {
  message: NeutralMessage;
  toolUseIds: string[];
  usesTools: boolean;
  /** The member each content block sets, cache points left out (they mark, they are not content). */
  members: string[];
}

function toolResultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((item) => (isRecord(item) ? (typeof item['text'] === 'string' ? item['text'] : item['json'] !== undefined ? JSON.stringify(item['json']) : '') : ''))
    .join('');
}

/**
 * One message: its text, the tool calls it makes (assistant) or answers (user), and a check of
 * each replayed reasoning block's signature, as Claude on Bedrock checks them.
 */
function readMessage(raw: unknown, i: number): Turn {
  const path = `messages.${i}`;
  if (!isRecord(raw)) throw invalid(`${path} must be an object.`);
  noExtraKeys(raw, ['role', 'content']);
  const role = raw['role'];
  if (role !== 'user' && role !== 'assistant') throw invalid(`1 validation error detected: Value '${String(role)}' at '${path}.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`);
  const content = raw['content'];
  if (!Array.isArray(content) || content.length === 0) throw invalid(`The content field in the Message object at ${path} is empty. Add a ContentBlock object to the content field and try again.`);
  const texts: string[] = [];
  const toolUseIds: string[] = [];
  const results: NeutralToolResult[] = [];
  let usesTools = false;
  const members: string[] = [];
  content.forEach((block, j) => {
    const [member, value] = memberOf(block, `${path}.content.${j}`);
    const at = `${path}.content.${j}.${member}`;
    const problem = blockProblem(member, value, at);
    if (problem) throw invalid(problem);
    if (member !== 'cachePoint') members.push(member);
    if (member === 'text') texts.push(typeof value === 'string' ? value : '');
    if (member === 'toolUse') {
      if (role !== 'assistant') throw invalid(`A toolUse block at ${at} must be in an assistant message.`);
      const id = isRecord(value) && typeof value['toolUseId'] === 'string' ? value['toolUseId'] : '';
      if (!isRecord(value) || id === '' || typeof value['name'] !== 'string' || !isRecord(value['input'])) throw invalid(`${at} needs toolUseId, name and an input object.`);
      toolUseIds.push(id);
      usesTools = true;
    }
    if (member === 'toolResult') {
      if (role !== 'user') throw invalid(`A toolResult block at ${at} must be in a user message.`);
      if (!isRecord(value) || typeof value['toolUseId'] !== 'string') throw invalid(`${at} needs a toolUseId.`);
      results.push({ toolCallId: value['toolUseId'], text: toolResultText(value['content']) });
      usesTools = true;
    }
    if (member === 'reasoningContent' && isRecord(value) && isRecord(value['reasoningText'])) {
      const text = value['reasoningText']['text'];
      const signature = value['reasoningText']['signature'];
      if (typeof signature !== 'string' || typeof text !== 'string' || !verifyThinkingSignature('bedrock-converse', text, signature)) {
        throw invalid(`The model returned the following errors: ${at}.reasoningText.signature: Invalid signature in thinking block`);
      }
    }
  });
  const message: NeutralMessage = { role, text: texts.join('\n') };
  if (toolUseIds.length > 0) message.toolCallIds = toolUseIds;
  if (results.length > 0) message.toolResults = results;
  return { message, toolUseIds, usesTools, members };
}

function systemText(system: unknown): string {
  if (system === undefined) return '';
  if (!Array.isArray(system)) throw invalid('system must be a list of SystemContentBlock objects.');
  const problem = system.map(systemProblem).find((found) => found !== undefined);
  if (problem) throw invalid(problem);
  return system.map((block) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : '')).filter((text) => text !== '').join('\n');
}

/** `toolChoice` is a union: exactly one of auto, any and tool, a named tool among those declared. */
function readToolChoice(choice: unknown, tools: readonly NeutralTool[]): NeutralToolChoice {
  if (choice === undefined) return 'auto';
  if (!isRecord(choice) || Object.keys(choice).length !== 1) throw invalid('toolConfig.toolChoice must set exactly one of auto, any and tool.');
  noExtraKeys(choice, ['auto', 'any', 'tool']);
  if ('auto' in choice) return 'auto';
  if ('any' in choice) return 'required';
  const name = isRecord(choice['tool']) ? choice['tool']['name'] : undefined;
  if (typeof name !== 'string' || !tools.some((tool) => tool.name === name)) throw invalid(`The model returned the following errors: tool_choice names tool '${String(name)}', which is not among the tools provided.`);
  return { name };
}

function readTools(toolConfig: unknown): { tools: NeutralTool[]; choice: NeutralToolChoice } {
  if (toolConfig === undefined) return { tools: [], choice: 'auto' };
  if (!isRecord(toolConfig)) throw invalid('toolConfig must be an object.');
  noExtraKeys(toolConfig, ['tools', 'toolChoice']);
  const raw = toolConfig['tools'];
  if (!Array.isArray(raw) || raw.length === 0) throw invalid("1 validation error detected: Value '[]' at 'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1");
  const tools = raw.flatMap((entry, i): NeutralTool[] => {
    if (isRecord(entry) && 'cachePoint' in entry) return [];
    const value = isRecord(entry) ? entry['toolSpec'] : undefined;
    if (!isRecord(value) || typeof value['name'] !== 'string' || !isRecord(value['inputSchema'])) throw invalid(`toolConfig.tools.${i}.toolSpec needs a name and an inputSchema.`);
    return [{ name: value['name'], parameters: value['inputSchema']['json'] }];
  });
  return { tools, choice: readToolChoice(toolConfig['toolChoice'], tools) };
}

function thinkingEnabled(additional: Record<string, unknown>): boolean {
  const thinking = additional['thinking'];
  const reasoning = additional['reasoning_config'];
  return (isRecord(thinking) && thinking['type'] === 'enabled') || (isRecord(reasoning) && reasoning['type'] === 'enabled');
}

/** Claude's thinking rules apply to Claude models only; Bedrock passes other families' fields through. */
function checkClaudeThinking(model: string, turns: readonly Turn[], inference: Record<string, unknown>, additional: Record<string, unknown>, choice: NeutralToolChoice): void {
  const thinking = additional['thinking'];
  if (!/(^|\.)anthropic\.claude/.test(model) || !isRecord(thinking) || thinking['type'] !== 'enabled') return;
  const index = turns.map((turn) => turn.message.role).lastIndexOf('assistant');
  const problem = claudeThinkingProblem({
    thinking,
    maxTokens: typeof inference['maxTokens'] === 'number' ? inference['maxTokens'] : undefined,
    inference,
    additional,
    forcedTool: choice !== 'auto',
    lastAssistant: index < 0 ? undefined : { index, members: turns[index]!.members },
  });
  if (problem) throw invalid(problem);
}

/**
 * A Converse body (the model from the URL) → the neutral request, refusing what Bedrock refuses:
 * extraneous keys, roles that do not alternate from a user turn, tool results that answer no call
 * of the turn before, tool blocks without a toolConfig, replayed reasoning without its signature.
 */
export function convertConverseRequest(body: unknown, model: string, stream: boolean): NeutralRequest {
  if (!isRecord(body)) throw invalid('The request body must be a JSON object.');
  noExtraKeys(body, TOP_LEVEL);
  const raw = body['messages'];
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  const turns = raw.map(readMessage);
  turns.forEach((turn, i) => {
    if (i === 0 && turn.message.role !== 'user') throw invalid('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    if (i > 0 && turns[i - 1]!.message.role === turn.message.role) throw invalid('A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.');
    const previous = i > 0 ? turns[i - 1]!.toolUseIds : [];
    for (const result of turn.message.toolResults ?? []) {
      if (!previous.includes(result.toolCallId)) throw invalid(`The toolResult block at messages.${i} answers toolUseId ${result.toolCallId}, which the previous assistant turn did not call.`);
    }
  });
  const { tools, choice } = readTools(body['toolConfig']);
  if (tools.length === 0 && turns.some((turn) => turn.usesTools)) throw invalid('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  const inference = body['inferenceConfig'] ?? {};
  if (!isRecord(inference)) throw invalid('inferenceConfig must be an object.');
  noExtraKeys(inference, INFERENCE_FIELDS);
  const inferenceIssue = inferenceProblem(inference);
  if (inferenceIssue) throw invalid(inferenceIssue);
  const additional = body['additionalModelRequestFields'] ?? {};
  if (!isRecord(additional)) throw invalid('additionalModelRequestFields must be a JSON object.');
  checkClaudeThinking(model, turns, inference, additional, choice);
  const maxTokens = typeof inference['maxTokens'] === 'number' ? inference['maxTokens'] : undefined;
  const stops = Array.isArray(inference['stopSequences']) ? inference['stopSequences'].filter((s): s is string => typeof s === 'string') : undefined;
  const system = systemText(body['system']);
  const messages: NeutralMessage[] = [...(system === '' ? [] : [{ role: 'system' as const, text: system }]), ...turns.map((turn) => turn.message)];
  const request: NeutralRequest = { model, messages, tools, toolChoice: choice, stream, thinkingEnabled: thinkingEnabled(additional) };
  if (maxTokens !== undefined) request.maxTokens = maxTokens;
  if (stops && stops.length > 0) request.stopSequences = stops;
  return request;
}
