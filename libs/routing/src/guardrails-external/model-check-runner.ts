import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import type { ExternalCheckContext, ExternalCheckResult, GuardrailStage, ModelCheck } from '@rosetta/guardrails';
import { costUsd } from '@rosetta/usage';
import type { ExecutorService } from '../executor.service';
import type { RoutingService } from '../routing.service';
import { CheckDeadline } from './check-deadline';
import { isLlamaGuard } from './llama-guard-categories';
import { modelCheckRequest, type ModelCheckFormat } from './model-check-prompt';
import { parseModelCheckAnswer } from './model-check-verdict';

/** A classification that takes longer than this is `unavailable: timeout` (the check's `fail` decides). */
export const MODEL_CHECK_TIMEOUT_MS = 30_000;

type Unavailable = 'timeout' | 'upstream_error';

/**
 * Runs a model check (ARCHITECTURE §9, Governance): classifies the text with a model from the
 * registry, through the same executor as any completion — its provider adapter, retries and
 * fallbacks across the model's endpoints, health and circuit breakers, time-outs. The call has no
 * ledger row of its own and no tenant routing choices; its tokens and cost come back as `call`
 * for the data plane to add to the request's row and budget. An answer that is not a verdict still
 * returns its `call` (it was paid for).
 */
export class ModelCheckRunner {
  constructor(
    private readonly routing: Pick<RoutingService, 'plan' | 'resolveModels'>,
    private readonly executor: Pick<ExecutorService, 'complete'>,
    private readonly timeoutMs = MODEL_CHECK_TIMEOUT_MS,
  ) {}

  async run(check: ModelCheck, text: string, stage: GuardrailStage, context: ExternalCheckContext): Promise<ExternalCheckResult> {
    // Nothing to classify: no call (an empty turn is refused by some upstreams anyway).
    if (text.trim() === '') return { verdict: { action: 'allow' } };
    const deadline = new CheckDeadline(this.timeoutMs, context.signal);
    try {
      const format = this.formatOf(check.model);
      const request = modelCheckRequest(check, text, stage, format);
      const plan = this.routing.plan(request);
      const outcome = await this.executor.complete(plan, request, { requestId: context.requestId, signal: deadline.signal });
      const usage = outcome.response.usage;
      const call = {
        model: outcome.meta.model,
        provider: outcome.meta.provider,
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
        costUsd: costUsd(usage, outcome.meta.pricing),
      };
      return { verdict: parseModelCheckAnswer(answerText(outcome.response), format, check), call };
    } catch (error) {
      return unavailable(deadline.expired ? 'timeout' : reasonOf(error));
    } finally {
      deadline.end();
    }
  }

  /** Llama Guard by its public id or any of its endpoints' upstream names (`meta-llama/Llama-Guard-3-8B`). */
  private formatOf(model: string): ModelCheckFormat {
    if (isLlamaGuard(model)) return 'llama-guard';
    const { primary } = this.routing.resolveModels({ model, routing: {} });
    return primary.endpoints.some((endpoint) => isLlamaGuard(endpoint.upstreamModel)) ? 'llama-guard' : 'rubric';
  }
}

function answerText(response: CanonicalResponse): string {
  return response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * A model that is gone from the registry, has no available endpoint, or whose upstream failed is
 * `upstream_error`; only the upstream's own time-out is `timeout`.
 */
function reasonOf(error: unknown): Unavailable {
  return error instanceof GatewayError && error.status === 504 ? 'timeout' : 'upstream_error';
}

function unavailable(reason: Unavailable): ExternalCheckResult {
  return { verdict: { action: 'unavailable', reason } };
}
