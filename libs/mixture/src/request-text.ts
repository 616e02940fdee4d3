import type { CanonicalRequest, ContentPart, Message } from '@rosetta/canonical';

/** Text of one content part (media are not text). */
function partText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
    case 'thinking':
    case 'refusal':
      return part.text;
    case 'tool_call':
      return part.arguments;
    case 'tool_result':
      return part.content.map((c) => partText(c)).join('\n');
    case 'document':
      return part.source.kind === 'text' ? part.source.data : '';
    default:
      return '';
  }
}

export function messageText(message: Message): string {
  return (message.content as ContentPart[]).map((p) => partText(p)).filter((t) => t !== '').join('\n');
}

/** The prompt the router scores: the text of the last user message (all text if none). */
export function promptTextOf(request: Pick<CanonicalRequest, 'messages'>): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m && m.role === 'user') return messageText(m);
  }
  return request.messages.map((m) => messageText(m)).join('\n');
}

export interface RequestFacts {
  messages: number;
  historyChars: number;
  images: number;
  documents: number;
  tools: number;
  jsonOutput: boolean;
  thinking: boolean;
}

export function requestFacts(request: CanonicalRequest): RequestFacts {
  let images = 0;
  let documents = 0;
  let historyChars = 0;
  for (const m of request.messages) {
    historyChars += messageText(m).length;
    for (const p of m.content as ContentPart[]) {
      if (p.type === 'image') images++;
      if (p.type === 'document') documents++;
      if (p.type !== 'tool_result') continue;
      images += p.content.filter((c) => c.type === 'image').length;
      documents += p.content.filter((c) => c.type === 'document').length;
    }
  }
  const format = request.responseFormat?.type;
  return {
    messages: request.messages.length,
    historyChars,
    images,
    documents,
    tools: request.tools?.length ?? 0,
    jsonOutput: format === 'json_object' || format === 'json_schema',
    thinking: request.thinking?.enabled === true,
  };
}
