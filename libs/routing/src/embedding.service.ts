import { Injectable } from '@nestjs/common';
import type { EmbeddingRequest, Usage } from '@rosetta/canonical';
import { estimateEmbeddingTokens } from '@rosetta/limits';
import { costUsd, type UsageDraft } from '@rosetta/usage';
import { ChatService } from './chat.service';
import { ExecutorService } from './executor.service';
import { GuardrailService } from './guardrails/guardrail.service';
import type { CallContext, EmbeddingOutcome } from './outcome';
import { RoutingService } from './routing.service';

/**
 * Embeddings for every dialect, metered like chat: plan (embedding models only), admit (the
 * estimated input tokens against the key's tokens per minute, the most it can cost against its
 * budgets — ChatService keeps the budget holds), execute (the executor's retries, fallbacks,
 * breakers and time-outs), then settle to the reported input tokens, or to the estimate where the
 * upstream reports none (Gemini). The ledger row is written when the response closes.
 */
@Injectable()
export class EmbeddingService {
  constructor(
    private readonly routing: RoutingService,
    private readonly executor: ExecutorService,
    private readonly chat: ChatService,
    private readonly guardrails: GuardrailService,
  ) {}

  /** The request's ledger row and budget settlement, once its response has closed. */
  recordUsage(draft: UsageDraft, status: number, ctx?: Pick<CallContext, 'key' | 'endUser'>): void {
    this.chat.recordUsage(draft, status, ctx);
  }

  /** Input guardrails apply to the texts to embed (decision 0030); there is no output text. */
  async embed(original: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingOutcome> {
    const guard = this.guardrails.policyFor(ctx);
    const request = guard?.input ? await this.guardrails.admitEmbedding(original, ctx, guard) : original;
    const tokens = estimateEmbeddingTokens(request.inputs);
    const plan = this.routing.planEmbedding(request, { largestInputTokens: tokens.largest }, { allowed: ctx.key?.models });
    ctx.usage?.planned(request.model, false, undefined, tokens.total);
    const reservation = await this.chat.admit({}, ctx, tokens.total, plan);
    try {
      const outcome = await this.executor.embed(plan, request, ctx);
      const usage: Usage = outcome.response.usage ?? { inputTokens: tokens.total, outputTokens: 0 };
      outcome.response.usage = usage;
      ctx.usage?.served(outcome.meta.model, outcome.meta.provider, outcome.meta.pricing);
      ctx.usage?.reported(usage);
      outcome.meta.costUsd = costUsd(usage, outcome.meta.pricing);
      void reservation?.settle(usage.inputTokens);
      return outcome;
    } catch (error) {
      void reservation?.settle(0);
      throw error;
    }
  }
}
