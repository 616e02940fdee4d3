import type { CanonicalRequest, ContentPart, Message } from '@rosetta/canonical';
import { countTokens } from 'gpt-tokenizer';

/**
 * Prompt tokens estimated with a real BPE tokenizer (o200k). Providers tokenise differently, so
 * this is an estimate — used to reserve rate-limit budget, check context windows and answer
 * count_tokens — never a bill: usage is settled from what the upstream reports.
 */
const PER_MESSAGE = 4;
const PER_IMAGE = 1_000;
const PER_DOCUMENT = 1_500;
const PER_AUDIO = 1_000;

function partTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
    case 'refusal':
      return countTokens(part.text);
    case 'tool_call':
      return countTokens(part.name) + countTokens(part.arguments) + 3;
    case 'tool_result':
      return part.content.reduce((sum, c) => sum + partTokens(c), 3);
    case 'image':
      return PER_IMAGE;
    case 'document':
      return part.source.kind === 'text' ? countTokens(part.source.data) : PER_DOCUMENT;
    case 'audio':
      return PER_AUDIO;
    case 'redacted_thinking':
      return Math.ceil(part.data.length / 4);
  }
}

function messageTokens(message: Message): number {
  return (message.content as ContentPart[]).reduce((sum, part) => sum + partTokens(part), PER_MESSAGE);
}

export function estimatePromptTokens(request: Pick<CanonicalRequest, 'messages' | 'tools'>): number {
  const messages = request.messages.reduce((sum, m) => sum + messageTokens(m), 3);
  const tools = request.tools?.length ? countTokens(JSON.stringify(request.tools)) : 0;
  return messages + tools;
}
