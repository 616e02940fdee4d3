import type { CacheHint, CanonicalRequest, ContentPart, Message } from '@rosetta/canonical';

/**
 * `prompt_cache: auto` on the canonical request, for protocols that send breakpoints from its
 * hints (Bedrock Converse's `cachePoint`): a hint after the tools and system prompt, and one after
 * the conversation so far, unless the client placed any of its own. The Anthropic encoder places
 * the same two on its wire body instead, so a forwarded body gets them too.
 */
const HINT: CacheHint = Object.freeze({ type: 'ephemeral' });

export function withAutoCacheHints(request: CanonicalRequest): CanonicalRequest {
  if (!request.autoPromptCache || hasCacheHint(request)) return request;
  const messages = [...request.messages];
  let tools = request.tools;
  const systemAt = lastIndex(messages, (m) => m.role === 'system');
  if (systemAt >= 0) messages[systemAt] = hinted(messages[systemAt]!);
  else if (tools && tools.length > 0) tools = [...tools.slice(0, -1), { ...tools.at(-1)!, cache: HINT }];
  const lastAt = messages.length - 1;
  if (lastAt >= 0 && messages[lastAt]!.role !== 'system') messages[lastAt] = hinted(messages[lastAt]!);
  return { ...request, messages, ...(tools ? { tools } : {}) };
}

function hasCacheHint(request: CanonicalRequest): boolean {
  if (request.tools?.some((tool) => tool.cache)) return true;
  return request.messages.some((message) => (message.content as ContentPart[]).some((part) => 'cache' in part && part.cache !== undefined));
}

/** The message with a hint on its last part that can carry one (text, image, document, tool result). */
function hinted(message: Message): Message {
  const content = [...(message.content as ContentPart[])];
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i]!;
    if (part.type === 'text' || part.type === 'image' || part.type === 'document' || part.type === 'tool_result') {
      content[i] = { ...part, cache: HINT };
      return { ...message, content } as Message;
    }
  }
  return message;
}

function lastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
