import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { GatewayError, type FinishReason, type Usage } from '@rosetta/canonical';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { GEN_AI_RESPONSE_FINISH_REASONS, GEN_AI_RESPONSE_ID, GEN_AI_RESPONSE_MODEL, GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, GEN_AI_USAGE_INPUT_TOKENS, GEN_AI_USAGE_OUTPUT_TOKENS, GEN_AI_USAGE_REASONING_OUTPUT_TOKENS } from './gen-ai-attributes';

/** What an upstream answered, as far as the span is concerned. */
export interface AttemptAnswer {
  id?: string;
  /** The model id the upstream reported. */
  model?: string;
  finishReason?: FinishReason;
  usage?: Usage;
}

/**
 * One upstream attempt (a retry or a fallback is another one): a CLIENT span, child of the
 * request's span. `headers` is its W3C trace context, sent with the upstream request so the
 * provider's own spans hang under this attempt. Ends exactly once: answered, failed, or — a
 * stream, which outlives the attempt loop — settled when the response closes.
 */
export class AttemptSpan {
  private ended = false;

  constructor(
    private readonly span: Span,
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  /** A whole (non-streamed) answer arrived. */
  answered(answer: AttemptAnswer): void {
    if (this.ended) return;
    if (answer.model) this.span.setAttribute(GEN_AI_RESPONSE_MODEL, answer.model);
    if (answer.id) this.span.setAttribute(GEN_AI_RESPONSE_ID, answer.id);
    if (answer.finishReason) this.span.setAttribute(GEN_AI_RESPONSE_FINISH_REASONS, [answer.finishReason.unified]);
    setUsage(this.span, answer.usage);
    this.end();
  }

  /** The attempt failed; `error` undefined: the client went away first. */
  failed(error: unknown): void {
    if (this.ended) return;
    this.span.setAttribute(ATTR_ERROR_TYPE, errorType(error));
    this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.end();
  }

  /** The response closed: a streamed attempt ends with the request's final usage and outcome. */
  settle(usage: Usage | undefined, error: string | undefined): void {
    if (this.ended) return;
    setUsage(this.span, usage);
    if (error) {
      this.span.setAttribute(ATTR_ERROR_TYPE, error);
      if (error !== 'client_disconnected') this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.span.end();
  }
}

/** The error's type (never its message, which may quote the upstream's words about the prompt). */
function errorType(error: unknown): string {
  if (error === undefined) return 'client_disconnected';
  if (error instanceof GatewayError) return error.type;
  return error instanceof Error ? error.name : 'unknown';
}

export function setUsage(span: Span, usage: Usage | undefined): void {
  if (!usage) return;
  span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, usage.inputTokens);
  span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, usage.outputTokens);
  if (usage.cachedInputTokens !== undefined) span.setAttribute(GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, usage.cachedInputTokens);
  if (usage.cacheCreationInputTokens !== undefined) span.setAttribute(GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, usage.cacheCreationInputTokens);
  if (usage.reasoningTokens !== undefined) span.setAttribute(GEN_AI_USAGE_REASONING_OUTPUT_TOKENS, usage.reasoningTokens);
}
