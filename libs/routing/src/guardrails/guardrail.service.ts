import { Inject, Injectable, Optional } from '@nestjs/common';
import { TeamCacheService } from '@rosetta/auth';
import { GatewayError, type CanonicalRequest, type EmbeddingRequest, type StreamEvent } from '@rosetta/canonical';
import {
  blockMessage, effectiveGuardrails, EXTERNAL_CHECK_RUNNER,
  type EffectiveExternal, type EffectiveGuardrails, type ExternalCheckRunner, type GuardrailRecord, type GuardrailStage,
} from '@rosetta/guardrails';
import { PlanCacheService } from '@rosetta/limits';
import { AdmissionService } from '../admission.service';
import type { CallContext, CompletionOutcome } from '../outcome';
import { answerTexts, embeddingTexts, requestTexts, withAnswerTexts, withEmbeddingTexts, withRequestTexts } from './guarded-text';
import { GUARDRAIL_BLOCK_LISTENER, type GuardrailBlockListener } from './guardrail-block-listener';
import { builtInStage, externalStage, type StageOutcome } from './guardrail-stage';
import { guardStream } from './guard-stream';

/**
 * Guardrails on the data plane (ARCHITECTURE §9, decision 0030): the effective policy of a
 * request's key, team and plan, read from the records the hot path already holds in memory, and
 * the input and output stages. A key without checks at any level costs two map reads and
 * three null checks.
 */
@Injectable()
export class GuardrailService {
  private readonly listeners: GuardrailBlockListener[] = [];

  constructor(
    private readonly plans: PlanCacheService,
    private readonly teams: TeamCacheService,
    private readonly admission: AdmissionService,
    @Inject(EXTERNAL_CHECK_RUNNER) private readonly runner: ExternalCheckRunner,
    @Optional() @Inject(GUARDRAIL_BLOCK_LISTENER) listener?: GuardrailBlockListener,
  ) {
    if (listener) this.listeners.push(listener);
  }

  /** Calls `listener` with every block (e.g. the `guardrail.blocked` alert's counter). */
  onBlocked(listener: GuardrailBlockListener): void {
    this.listeners.push(listener);
  }

  /** The request's effective policy; undefined (nothing to do) for a key without checks at any level. */
  policyFor(ctx: Pick<CallContext, 'key'>): EffectiveGuardrails | undefined {
    const key = ctx.key;
    if (!key) return undefined;
    const team = key.teamId ? this.teams.get(key.teamId)?.guardrails : undefined;
    const plan = this.plans.get(key.plan)?.guardrails;
    if (!key.guardrails && !team && !plan) return undefined;
    return effectiveGuardrails({ key: key.guardrails, team, plan });
  }

  /**
   * The input stage: the request as the upstream may see it (redacted). A block is thrown as a
   * 400 `guardrail_violation`, after the request is counted against its key's RPM like any
   * refused request and noted on its ledger row (no upstream, cost 0 but for model checks).
   */
  async admitInput(request: CanonicalRequest, ctx: CallContext, effective: EffectiveGuardrails): Promise<CanonicalRequest> {
    const checked = await this.stage(requestTexts(request), effective, 'input', ctx, request, (texts) => withRequestTexts(request, texts));
    if (!(checked instanceof GatewayError)) return checked;
    ctx.usage?.planned(request.model, request.stream, undefined);
    await this.admission.countOnly(ctx);
    throw checked;
  }

  /** The input stage of an embeddings request (every text input is scanned). */
  async admitEmbedding(request: EmbeddingRequest, ctx: CallContext, effective: EffectiveGuardrails): Promise<EmbeddingRequest> {
    const checked = await this.stage(embeddingTexts(request), effective, 'input', ctx, request, (texts) => withEmbeddingTexts(request, texts));
    if (!(checked instanceof GatewayError)) return checked;
    ctx.usage?.planned(request.model, false, undefined);
    await this.admission.countOnly(ctx);
    throw checked;
  }

  /** The output stage of a whole answer: redacted, or a thrown 400 (the upstream's cost stays on the row). */
  async admitAnswer(outcome: CompletionOutcome, ctx: CallContext, effective: EffectiveGuardrails): Promise<CompletionOutcome> {
    const { response } = outcome;
    const checked = await this.stage(answerTexts(response), effective, 'output', ctx, response, (texts) => withAnswerTexts(response, texts));
    if (checked instanceof GatewayError) throw checked;
    return checked === response ? outcome : { ...outcome, response: checked };
  }

  /** The output stage of a decoded stream (guard-stream.ts). */
  guardStream(events: AsyncIterable<StreamEvent>, ctx: CallContext, effective: EffectiveGuardrails): AsyncIterable<StreamEvent> {
    const externals = effective.outputExternal;
    return guardStream(events, effective, {
      record: (records) => ctx.usage?.guarded(records),
      beforeRecord: ctx.beforeRecord,
      blocked: (record) => this.blocked(record, ctx),
      billed: (finish) => ctx.usage?.reported(finish.usage),
      ...(externals.length > 0 ? { external: (texts: string[]) => this.external({ records: [], checkCosts: [] }, texts, externals, effective, 'output', ctx) } : {}),
    });
  }

  /** Built-in checks, then external ones (only those make it asynchronous); `original` when nothing changed. */
  private stage<T>(texts: string[], effective: EffectiveGuardrails, stage: GuardrailStage, ctx: CallContext, original: T, rebuild: (texts: string[]) => T): T | GatewayError | Promise<T | GatewayError> {
    const built = builtInStage(texts, effective, stage);
    const externals = stage === 'input' ? effective.inputExternal : effective.outputExternal;
    if (externals.length === 0 || built.blocked) return this.conclude(built, ctx, original, rebuild);
    return this.external(built, texts, externals, effective, stage, ctx).then((outcome) => this.conclude(outcome, ctx, original, rebuild));
  }

  private external(outcome: StageOutcome, texts: readonly string[], externals: readonly EffectiveExternal[], effective: EffectiveGuardrails, stage: GuardrailStage, ctx: CallContext): Promise<StageOutcome> {
    const context = { requestId: ctx.requestId, keyId: ctx.key?.id ?? '', signal: abortSignalOf(ctx) };
    return externalStage(outcome, texts, externals, effective, stage, this.runner, context).then((done) => {
      for (const call of done.checkCosts) if (call) ctx.usage?.checkCalled(call.costUsd);
      return done;
    });
  }

  private conclude<T>(outcome: StageOutcome, ctx: CallContext, original: T, rebuild: (texts: string[]) => T): T | GatewayError {
    ctx.usage?.guarded(outcome.records);
    if (outcome.blocked) return this.blocked(outcome.blocked, ctx);
    return outcome.texts ? rebuild(outcome.texts) : original;
  }

  /** The error a block answers with; every listener is told (and may not hold the request up). */
  private blocked(verdict: GuardrailRecord, ctx: CallContext): GatewayError {
    const event = { requestId: ctx.requestId, keyId: ctx.key?.id, teamId: ctx.key?.teamId ?? undefined, verdict };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own: the block stands and is answered.
      }
    }
    return new GatewayError('guardrail_violation', blockMessage(verdict));
  }
}

/** The client's abort as a standard signal, for the runner's own calls. */
function abortSignalOf(ctx: CallContext): AbortSignal {
  const controller = new AbortController();
  const watch = ctx.signal;
  if (watch.aborted) controller.abort(watch.reason);
  else watch.once('abort', () => controller.abort(watch.reason));
  return controller.signal;
}
