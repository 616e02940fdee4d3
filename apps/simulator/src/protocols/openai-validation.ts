import { isRecord } from '../http-io';
import { OpenAiRequestError } from './openai-request';

/**
 * The tool-call pairing OpenAI enforces, checked on wire messages that already converted cleanly:
 * every `tool` message answers an id of the assistant `tool_calls` block it follows, and every
 * such id is answered before the next user or assistant message (or the end of the list).
 * System and developer messages may sit in between. Returns the first violation, if any.
 */
export function validateOpenAiConversation(messages: readonly unknown[]): OpenAiRequestError | undefined {
  let pending: { index: number; ids: string[]; answered: Set<string> } | undefined;
  const unanswered = (): OpenAiRequestError | undefined => {
    if (!pending) return undefined;
    const missing = pending.ids.filter((id) => !pending?.answered.has(id));
    if (missing.length === 0) return undefined;
    return new OpenAiRequestError(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
      `messages[${pending.index}].role`,
      null,
    );
  };
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    const role = message['role'];
    if (role === 'tool') {
      const id = String(message['tool_call_id']);
      if (!pending) {
        return new OpenAiRequestError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages[${index}].role`,
          null,
        );
      }
      if (!pending.ids.includes(id)) {
        return new OpenAiRequestError(
          `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          `messages[${index}].tool_call_id`,
          null,
        );
      }
      pending.answered.add(id);
      continue;
    }
    if (role !== 'user' && role !== 'assistant') continue;
    const problem = unanswered();
    if (problem) return problem;
    pending = undefined;
    const calls = message['tool_calls'];
    if (role === 'assistant' && Array.isArray(calls) && calls.length > 0) {
      const ids = calls.map((call) => String(isRecord(call) ? call['id'] : ''));
      pending = { index, ids, answered: new Set() };
    }
  }
  return unanswered();
}
