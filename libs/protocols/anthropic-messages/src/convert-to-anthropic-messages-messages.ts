/**
 * Canonical messages → Anthropic `system` and `messages`.
 *
 * - System messages are hoisted, in order, to the top-level `system` (Anthropic has no other place
 *   for them); one that came after the conversation started is flagged, as its position is lost.
 * - Turns alternate user/assistant: consecutive turns of one role are merged, and a canonical tool
 *   message joins the user turn around it with its `tool_result` blocks first, as Anthropic wants.
 * - Thinking goes back only when Anthropic signed it; unsigned or foreign thinking is history the
 *   upstream would refuse, so it is left out without a warning.
 */
import type {
  AssistantMessage,
  Converted,
  Message,
  TranslationWarning,
} from '@rosetta/canonical';
import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { addToTurn, signatureFor, unwrapCallSignature, type AlternatingTurn } from '@rosetta/protocols/common';
import { toTextBlocks, toToolResultBlock, toToolUseBlock, toUserBlocks } from './convert-to-anthropic-messages-content';

export interface AnthropicMessagesConversation {
  system: TextBlockParam[];
  messages: MessageParam[];
}

export function convertToAnthropicMessagesMessages({ messages }: { messages: Message[] }): Converted<AnthropicMessagesConversation> {
  const warnings: TranslationWarning[] = [];
  const system: TextBlockParam[] = [];
  const turns: AlternatingTurn<ContentBlockParam>[] = [];
  messages.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        if (turns.length > 0) {
          warnings.push({ feature: 'system', message: `The system message at messages[${i}] was moved to the top-level system prompt.` });
        }
        system.push(...toTextBlocks(message.content));
        return;
      case 'user':
        return addToTurn(turns, 'user', 'blocks', toUserBlocks(message.content, warnings));
      case 'tool':
        return addToTurn(turns, 'user', 'results', message.content.map((result) => toToolResultBlock(result, warnings)));
      case 'assistant':
        return addToTurn(turns, 'assistant', 'blocks', toAssistantBlocks(message, `messages[${i}]`));
    }
  });
  const converted = turns.map((turn): MessageParam => ({ role: turn.role, content: [...turn.results, ...turn.blocks] }));
  return { value: { system, messages: converted }, warnings };
}

function toAssistantBlocks(message: AssistantMessage, path: string): ContentBlockParam[] {
  return message.content.flatMap((part, j): ContentBlockParam[] => {
    switch (part.type) {
      case 'text':
        return toTextBlocks([part]);
      case 'refusal':
        return toTextBlocks([{ type: 'text', text: part.text }]);
      case 'thinking': {
        const signature = signatureFor(part.signature, 'anthropic');
        // A call signature's carrier is no thinking Anthropic signed, whatever it claims.
        if (signature === undefined || unwrapCallSignature(signature)) return [];
        return [{ type: 'thinking', thinking: part.text, signature }];
      }
      case 'redacted_thinking':
        return part.protocol === 'anthropic' ? [{ type: 'redacted_thinking', data: part.data }] : [];
      case 'tool_call':
        return [toToolUseBlock(part, `${path}.content[${j}]`)];
    }
  });
}

