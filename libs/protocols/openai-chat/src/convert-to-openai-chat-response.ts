/**
 * Canonical response → dialect-A JSON, shaped like OpenAI's own so every client library parses it.
 */
import type { CanonicalResponse, ToolCallPart } from '@rosetta/canonical';
import type { ChatCompletion, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { toOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { toOpenAIChatUsage } from './map-openai-chat-usage';
import { callSignatureDetail, toReasoningDetail, type ReasoningDetail } from './reasoning-details';

/**
 * `reasoning_content` is not in OpenAI's schema: DeepSeek- and vLLM-style clients read thinking
 * text from it, and the official SDK ignores it.
 */
type DialectAMessage = ChatCompletion.Choice['message'] & { reasoning_content?: string; reasoning_details?: ReasoningDetail[] };
type DialectAChoice = ChatCompletion.Choice & { message: DialectAMessage };
type DialectACompletion = Omit<ChatCompletion, 'choices'> & { choices: DialectAChoice[] };

export function convertToOpenAIChatResponse({ response }: { response: CanonicalResponse }): Record<string, unknown> {
  const completion: DialectACompletion = {
    id: response.id,
    object: 'chat.completion',
    created: response.created,
    model: response.model,
    choices: [
      {
        index: 0,
        message: toMessage(response),
        logprobs: null,
        finish_reason: toOpenAIChatFinishReason(response.finishReason),
      },
    ],
  };
  if (response.usage) completion.usage = toOpenAIChatUsage(response.usage);
  return { ...completion };
}

function toMessage(response: CanonicalResponse): DialectAMessage {
  const texts: string[] = [];
  const refusals: string[] = [];
  const thoughts: string[] = [];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  const details: ReasoningDetail[] = [];
  for (const part of response.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'refusal') refusals.push(part.text);
    else if (part.type === 'tool_call') {
      toolCalls.push(toToolCall(part));
      const carrier = callSignatureDetail(part, details.length);
      if (carrier) details.push(carrier);
    }
    if (part.type === 'thinking') thoughts.push(part.text);
    if (part.type === 'thinking' || part.type === 'redacted_thinking') details.push(toReasoningDetail(part, details.length));
  }
  const message: DialectAMessage = {
    role: 'assistant',
    content: messageText(texts, toolCalls.length > 0 || refusals.length > 0),
    refusal: refusals.length > 0 ? refusals.join('') : null,
    annotations: [],
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thoughts.length > 0) message.reasoning_content = thoughts.join('');
  // Only worth sending when something is signed (thinking or a call): it is what lets the turn go
  // back to Claude/Gemini.
  if (details.some((d) => d.signature || d.data)) message.reasoning_details = details;
  return message;
}

/** OpenAI sends null, not '', when the turn is only calls or a refusal. */
function messageText(texts: string[], hasOtherOutput: boolean): string | null {
  if (texts.length > 0) return texts.join('');
  return hasOtherOutput ? null : '';
}

function toToolCall(part: ToolCallPart): ChatCompletionMessageFunctionToolCall {
  return { id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } };
}
