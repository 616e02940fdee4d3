/**
 * Canonical stream events → dialect-A SSE text. The output must satisfy openai-node's
 * `ChatCompletionStream` accumulator: the role on the first chunk, id/type/name on each tool
 * call's first fragment, tool calls numbered densely from 0, and a finish_reason before [DONE].
 */
import type { FinishReason, GatewayError, ProviderSignature, StreamEvent, Usage } from '@rosetta/canonical';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { toOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { toOpenAIChatUsage } from './map-openai-chat-usage';
import { callSignatureDetail, signedThinkingDetail, toReasoningDetail, type ReasoningDetail } from './reasoning-details';

export interface OpenAIChatStreamEncoderOptions {
  id: string;
  /** The public model id the client sees. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** The client asked for `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** Thinking travels in `reasoning_content`, a field DeepSeek-style clients read and the SDK ignores. */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string; reasoning_details?: ReasoningDetail[] };

export class OpenAIChatStreamEncoder {
  private roleSent = false;
  private ended = false;
  private usage?: Usage;
  /** Block index → position among tool calls: clients index `tool_calls` densely from 0. */
  private readonly toolCallOrdinals = new Map<number, number>();
  /** Thinking text per open block, sent whole with its signature when the block ends. */
  private readonly thinking = new Map<number, string>();
  private reasoningDetails = 0;

  constructor(private readonly options: OpenAIChatStreamEncoderOptions) {}

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    switch (event.type) {
      case 'start':
        return this.roleChunk();
      case 'text-delta':
        return this.deltaChunk({ content: event.text });
      case 'thinking-delta':
        this.thinking.set(event.index, (this.thinking.get(event.index) ?? '') + event.text);
        return this.deltaChunk({ reasoning_content: event.text });
      case 'thinking-end':
        return this.thinkingEnd(event.index, event.signature);
      case 'redacted-thinking':
        return this.deltaChunk({ reasoning_details: [toReasoningDetail({ type: 'redacted_thinking', data: event.data, protocol: event.protocol }, this.reasoningDetails++)] });
      case 'refusal-delta':
        return this.deltaChunk({ refusal: event.text });
      case 'tool-call-start':
        return this.toolCallStart(event.index, event.id, event.name, event.signature);
      case 'tool-call-delta':
        return this.toolCallDelta(event.index, event.argumentsDelta);
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'finish':
        return this.finish(event.finishReason, event.usage ?? this.usage);
      case 'error':
        this.ended = true;
        return openAIChatStreamErrorFrame(event.error);
      default:
        // Block boundaries and redacted thinking have no dialect-A form.
        return '';
    }
  }

  private thinkingEnd(index: number, signature: ProviderSignature | undefined): string {
    const text = this.thinking.get(index) ?? '';
    this.thinking.delete(index);
    if (!signature) return '';
    return this.deltaChunk({ reasoning_details: [signedThinkingDetail(text, signature, this.reasoningDetails++)] });
  }

  private roleChunk(): string {
    if (this.roleSent) return '';
    this.roleSent = true;
    return frame(this.chunk({ role: 'assistant', content: '' }, null));
  }

  /** Emits the role chunk first if no `start` came, so the client's accumulator still gets a role. */
  private deltaChunk(delta: Delta): string {
    return this.roleChunk() + frame(this.chunk(delta, null));
  }

  /** A foreign signature on the call goes with its first fragment, in reasoning_details. */
  private toolCallStart(blockIndex: number, id: string, name: string, signature: ProviderSignature | undefined): string {
    const index = this.toolCallOrdinals.size;
    this.toolCallOrdinals.set(blockIndex, index);
    const delta: Delta = { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] };
    const carrier = callSignatureDetail({ id, signature }, this.reasoningDetails);
    if (carrier) {
      this.reasoningDetails++;
      delta.reasoning_details = [carrier];
    }
    return this.deltaChunk(delta);
  }

  private toolCallDelta(blockIndex: number, argumentsDelta: string): string {
    const index = this.toolCallOrdinals.get(blockIndex);
    if (index === undefined) return '';
    return this.deltaChunk({ tool_calls: [{ index, function: { arguments: argumentsDelta } }] });
  }

  private finish(reason: FinishReason, usage: Usage | undefined): string {
    this.ended = true;
    let out = this.roleChunk() + frame(this.chunk({}, toOpenAIChatFinishReason(reason)));
    if (this.options.includeUsage && usage) {
      out += frame({ ...this.envelope(), choices: [], usage: toOpenAIChatUsage(usage) });
    }
    return `${out}data: [DONE]\n\n`;
  }

  private chunk(delta: Delta, finishReason: ChatCompletionChunk.Choice['finish_reason']): ChatCompletionChunk {
    return {
      ...this.envelope(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    };
  }

  private envelope(): Pick<ChatCompletionChunk, 'id' | 'object' | 'created' | 'model'> {
    const { id, created, model } = this.options;
    return { id, object: 'chat.completion.chunk', created, model };
  }
}

function frame(body: unknown): string {
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The in-stream error form openai-node turns into an APIError; no [DONE] follows it. */
export function openAIChatStreamErrorFrame(error: GatewayError): string {
  return frame({ error: { message: error.message, type: error.type, code: error.code ?? null, param: error.param ?? null } });
}
