/** Test-only: canonical stream events put together into the parts a whole answer would have. */
import type { AssistantContentPart, FinishReason, StreamEvent, Usage } from '@rosetta/canonical';

export interface Accumulated {
  content: AssistantContentPart[];
  finishReason?: FinishReason;
  usage?: Usage;
}

export function accumulateEvents(events: StreamEvent[]): Accumulated {
  const parts = new Map<number, AssistantContentPart>();
  const out: Accumulated = { content: [] };
  for (const event of events) {
    switch (event.type) {
      case 'text-start':
        parts.set(event.index, { type: 'text', text: '' });
        break;
      case 'thinking-start':
        parts.set(event.index, { type: 'thinking', text: '' });
        break;
      case 'text-delta':
      case 'thinking-delta': {
        const part = parts.get(event.index);
        if (part?.type === 'text' || part?.type === 'thinking') part.text += event.text;
        break;
      }
      case 'thinking-end': {
        const part = parts.get(event.index);
        if (part?.type === 'thinking' && event.signature) part.signature = event.signature;
        break;
      }
      case 'redacted-thinking':
        parts.set(event.index, { type: 'redacted_thinking', data: event.data, protocol: event.protocol });
        break;
      case 'tool-call-start':
        parts.set(event.index, { type: 'tool_call', id: event.id, name: event.name, arguments: '' });
        break;
      case 'tool-call-delta': {
        const part = parts.get(event.index);
        if (part?.type === 'tool_call') part.arguments += event.argumentsDelta;
        break;
      }
      case 'finish':
        out.finishReason = event.finishReason;
        if (event.usage) out.usage = event.usage;
        break;
      case 'error':
        throw event.error;
      default:
        break;
    }
  }
  out.content = [...parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
  return out;
}
