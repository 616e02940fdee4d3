import type { AssistantContentPart, CanonicalRequest, CanonicalResponse, ContentPart, StreamEvent, UnifiedFinishReason } from '@rosetta/canonical';

const GUARDRAIL_VIOLATION = 'guardrail_violation';

/**
 * Prompt and completion content in the GenAI conventions' JSON shapes (`gen_ai.input.messages`,
 * `gen_ai.output.messages`, `gen_ai.system_instructions`), written only when the operator opted in.
 * Inline media is named, never copied: a base64 image would only bloat the span.
 */
type Part = Record<string, unknown>;
interface MessageRecord {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function part(p: ContentPart): Part {
  switch (p.type) {
    case 'text':
      return { type: 'text', content: p.text };
    case 'thinking':
      return { type: 'reasoning', content: p.text };
    case 'refusal':
      return { type: 'text', content: p.text };
    case 'tool_call':
      return { type: 'tool_call', id: p.id, name: p.name, arguments: p.arguments };
    case 'tool_result':
      return { type: 'tool_call_response', id: p.toolCallId, response: p.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('') };
    case 'image':
    case 'document':
      return p.source.kind === 'url' ? { type: 'uri', modality: p.type, uri: p.source.url } : { type: 'blob', modality: p.type, mime_type: p.source.mediaType };
    case 'audio':
      return { type: 'blob', modality: 'audio', mime_type: `audio/${p.format}` };
    case 'redacted_thinking':
      return { type: 'reasoning', content: '[redacted]' };
  }
}

export function inputContent(request: CanonicalRequest): { system?: string; messages: string } {
  const system: Part[] = [];
  const messages: MessageRecord[] = [];
  for (const message of request.messages) {
    if (message.role === 'system') system.push(...message.content.map(part));
    else messages.push({ role: message.role, parts: (message.content as ContentPart[]).map(part) });
  }
  return { system: system.length > 0 ? JSON.stringify(system) : undefined, messages: JSON.stringify(messages) };
}

export function outputContent(response: Pick<CanonicalResponse, 'content' | 'finishReason'>): string {
  return JSON.stringify([{ role: 'assistant', parts: response.content.map(part), finish_reason: response.finishReason.unified }]);
}

/**
 * Collects a stream's text and tool calls as it passes, for `gen_ai.output.messages` at its end.
 * A stream a guardrail blocked is not captured at all: a check over the whole answer blocks after
 * its text was sent, and a trace must not keep what a guardrail stopped.
 */
export async function* tapStreamContent(events: AsyncIterable<StreamEvent>, done: (output: string) => void): AsyncGenerator<StreamEvent> {
  const content: AssistantContentPart[] = [];
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let text = '';
  let finish: UnifiedFinishReason = 'other';
  let blocked = false;
  try {
    for await (const event of events) {
      if (event.type === 'text-delta') text += event.text;
      else if (event.type === 'tool-call-start') calls.set(event.index, { id: event.id, name: event.name, arguments: '' });
      else if (event.type === 'tool-call-delta') {
        const call = calls.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
      } else if (event.type === 'finish') finish = event.finishReason.unified;
      else if (event.type === 'error') {
        finish = 'error';
        blocked ||= event.error.type === GUARDRAIL_VIOLATION;
      }
      yield event;
    }
  } finally {
    if (!blocked) {
      if (text) content.push({ type: 'text', text });
      for (const call of calls.values()) content.push({ type: 'tool_call', ...call });
      done(outputContent({ content, finishReason: { unified: finish } }));
    }
  }
}
