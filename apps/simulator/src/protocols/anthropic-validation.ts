import { isRecord } from '../http-io';
import { verifyThinkingSignature } from '../signatures';
import type { AnthropicBlock, AnthropicMessage, AnthropicRequest } from './anthropic-request';

/** A block with the wire position it came from, so messages name `messages.I.content.J`. */
interface PlacedBlock {
  block: AnthropicBlock;
  path: string;
}

/** Consecutive same-role messages, merged as the real API merges them before checking. */
interface Turn {
  role: 'user' | 'assistant';
  /** Index of the turn's first wire message. */
  index: number;
  blocks: PlacedBlock[];
}

function mergeTurns(messages: readonly AnthropicMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const placed = message.blocks.map((block, j) => ({ block, path: `messages.${message.index}.content.${j}` }));
    const last = turns[turns.length - 1];
    if (last && last.role === message.role) last.blocks.push(...placed);
    else turns.push({ role: message.role, index: message.index, blocks: placed });
  }
  return turns;
}

/** Anthropic accepts `system` messages inside the conversation only under this beta. */
export const MID_CONVERSATION_SYSTEM_BETA = 'mid-conversation-system-';

function blockRules(request: AnthropicRequest, betas: string): string | undefined {
  for (const message of request.messages) {
    if (message.role === 'system' && !betas.includes(MID_CONVERSATION_SYSTEM_BETA)) {
      return `messages.${message.index}.role: Unexpected role "system". The Messages API accepts a top-level \`system\` parameter, not "system" as an input message role.`;
    }
    for (const [j, block] of message.blocks.entries()) {
      const path = `messages.${message.index}.content.${j}`;
      if (block.type === 'tool_use' && !isRecord(block.input)) return `${path}.tool_use.input: Input should be a valid dictionary`;
      if (block.type === 'thinking' && !verifyThinkingSignature('anthropic', block.thinking, block.signature)) {
        return `${path}: invalid signature in thinking block`;
      }
    }
  }
  return undefined;
}

function toolUseIds(turn: Turn | undefined): string[] {
  if (!turn || turn.role !== 'assistant') return [];
  return turn.blocks.flatMap(({ block }) => (block.type === 'tool_use' ? [block.id] : []));
}

/** tool_result blocks lead their user turn and answer a tool_use of the assistant turn just before. */
function resultRules(turn: Turn, previous: Turn | undefined): string | undefined {
  const offered = toolUseIds(previous);
  let leading = true;
  for (const { block, path } of turn.blocks) {
    if (block.type !== 'tool_result') {
      leading = false;
      continue;
    }
    if (!leading) {
      return `${path}: \`tool_result\` blocks must come first in the content of a user message, before any other content.`;
    }
    if (!offered.includes(block.toolUseId)) {
      return `${path}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.toolUseId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return undefined;
}

/** Every tool_use of an assistant turn is answered in the next turn, when there is one. */
function answerRule(turn: Turn, next: Turn | undefined): string | undefined {
  const ids = toolUseIds(turn);
  if (ids.length === 0 || !next) return undefined;
  const answered = new Set(next.blocks.flatMap(({ block }) => (block.type === 'tool_result' ? [block.toolUseId] : [])));
  const missing = ids.filter((id) => !answered.has(id));
  if (missing.length === 0) return undefined;
  return `messages.${next.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
}

/**
 * With thinking on, the final assistant turn, when it calls tools, must start with its thinking
 * (the real API needs it to continue the tool loop; earlier turns may have theirs stripped).
 */
function thinkingRule(turns: readonly Turn[]): string | undefined {
  const last = [...turns].reverse().find((turn) => turn.role === 'assistant');
  if (!last || toolUseIds(last).length === 0) return undefined;
  const first = last.blocks[0];
  if (!first || first.block.type === 'thinking' || first.block.type === 'redacted_thinking') return undefined;
  return `${first.path}.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.block.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceding the lastmost set of \`tool_use\` and \`tool_result\` blocks). To avoid this requirement, disable \`thinking\`.`;
}

/**
 * The checks the real Messages API makes beyond field types, so a gateway's translation bugs
 * surface as the same 400s. Returns the first violation's message, or undefined.
 */
export function validateAnthropicRequest(request: AnthropicRequest, betas = ''): string | undefined {
  if (request.temperature !== undefined && request.temperature > 1) return 'temperature: Input should be less than or equal to 1';
  if (request.temperature !== undefined && request.temperature < 0) return 'temperature: Input should be greater than or equal to 0';
  const blockProblem = blockRules(request, betas);
  if (blockProblem) return blockProblem;
  const turns = mergeTurns(request.messages);
  for (const [i, turn] of turns.entries()) {
    const problem = turn.role === 'user' ? resultRules(turn, turns[i - 1]) : answerRule(turn, turns[i + 1]);
    if (problem) return problem;
  }
  return request.thinkingEnabled ? thinkingRule(turns) : undefined;
}
