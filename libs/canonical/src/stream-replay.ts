/**
 * A whole answer and its stream, each made from the other: a stored (or accepted cascade) answer
 * replayed as the events a streamed upstream would have sent, and a stream's events put back
 * together into the answer, so a streamed miss can be stored for any later request.
 */
import type { AssistantContentPart } from './content-part';
import type { FinishReason } from './finish-reason';
import type { CanonicalResponse } from './response';
import type { StreamEvent } from './stream-event';
import type { Usage } from './usage';

export async function* replayAsStream(response: CanonicalResponse): AsyncGenerator<StreamEvent> {
  yield* replayEvents(response);
}

export function* replayEvents(response: CanonicalResponse): Generator<StreamEvent> {
  // The answer is whole: the stream can start with its prompt count, as the upstream would have.
  const usage = response.usage && promptUsage(response.usage);
  yield { type: 'start', id: response.id, model: response.model, created: response.created, ...(usage ? { usage } : {}) };
  let index = 0;
  for (const part of response.content) {
    switch (part.type) {
      case 'text':
        yield { type: 'text-start', index };
        yield { type: 'text-delta', index, text: part.text };
        yield { type: 'text-end', index, ...(part.signature ? { signature: part.signature } : {}) };
        break;
      case 'thinking':
        yield { type: 'thinking-start', index };
        yield { type: 'thinking-delta', index, text: part.text };
        yield { type: 'thinking-end', index, ...(part.signature ? { signature: part.signature } : {}) };
        break;
      case 'redacted_thinking':
        yield { type: 'redacted-thinking', index, data: part.data, protocol: part.protocol };
        break;
      case 'tool_call':
        yield { type: 'tool-call-start', index, id: part.id, name: part.name, ...(part.signature ? { signature: part.signature } : {}) };
        yield { type: 'tool-call-delta', index, argumentsDelta: part.arguments };
        yield { type: 'tool-call-end', index };
        break;
      case 'refusal':
        yield { type: 'refusal-delta', index, text: part.text };
        break;
    }
    index++;
  }
  yield { type: 'finish', finishReason: response.finishReason, ...(response.usage ? { usage: response.usage } : {}) };
}

function promptUsage(usage: Usage): Usage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: 0,
    ...(usage.cachedInputTokens ? { cachedInputTokens: usage.cachedInputTokens } : {}),
    ...(usage.cacheCreationInputTokens ? { cacheCreationInputTokens: usage.cacheCreationInputTokens } : {}),
  };
}

/**
 * Puts a stream's events back together into its answer, event by event, as they pass. The answer
 * exists only for a stream that finished without an error.
 */
export class StreamedAnswer {
  private readonly parts = new Map<number, AssistantContentPart>();
  private head?: { id: string; model: string; created: number };
  private finishReason?: FinishReason;
  private usage?: Usage;
  private failed = false;

  add(event: StreamEvent): void {
    switch (event.type) {
      case 'start':
        this.head = { id: event.id, model: event.model, created: event.created };
        break;
      case 'text-start':
        this.parts.set(event.index, { type: 'text', text: '' });
        break;
      case 'thinking-start':
        this.parts.set(event.index, { type: 'thinking', text: '' });
        break;
      case 'text-delta':
      case 'thinking-delta':
      case 'refusal-delta':
        this.appendText(event.index, event.type === 'refusal-delta', event.text);
        break;
      case 'text-end':
      case 'thinking-end': {
        const part = this.parts.get(event.index);
        if (event.signature && (part?.type === 'text' || part?.type === 'thinking')) part.signature = event.signature;
        break;
      }
      case 'redacted-thinking':
        this.parts.set(event.index, { type: 'redacted_thinking', data: event.data, protocol: event.protocol });
        break;
      case 'tool-call-start':
        this.parts.set(event.index, { type: 'tool_call', id: event.id, name: event.name, arguments: '', ...(event.signature ? { signature: event.signature } : {}) });
        break;
      case 'tool-call-delta': {
        const part = this.parts.get(event.index);
        if (part?.type === 'tool_call') part.arguments += event.argumentsDelta;
        break;
      }
      case 'usage':
        this.usage = event.usage;
        break;
      case 'finish':
        this.finishReason = event.finishReason;
        if (event.usage) this.usage = event.usage;
        break;
      case 'error':
      case 'wire':
        // A forwarded frame is not decoded here: such a stream cannot be put back together.
        this.failed = true;
        break;
    }
  }

  /** The whole answer, or undefined when the stream failed, was forwarded raw, or never finished. */
  response(): CanonicalResponse | undefined {
    if (this.failed || !this.head || !this.finishReason) return undefined;
    const content = [...this.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
    return { ...this.head, content, finishReason: this.finishReason, ...(this.usage ? { usage: this.usage } : {}) };
  }

  private appendText(index: number, refusal: boolean, text: string): void {
    let part = this.parts.get(index);
    if (!part && refusal) this.parts.set(index, (part = { type: 'refusal', text: '' }));
    if (part?.type === 'text' || part?.type === 'thinking' || part?.type === 'refusal') part.text += text;
  }
}
