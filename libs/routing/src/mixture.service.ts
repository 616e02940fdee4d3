import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { CanonicalRequest } from '@rosetta/canonical';
import {
  answerKindOf,
  decide,
  decideCascadeStep,
  loadRouterArtefact,
  promptTextOf,
  qualityBasisOf,
  type Candidate,
  type CascadeResponse,
  type CascadeStep,
  type RouteDecision,
  type RouterArtefact,
} from '@rosetta/mixture';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { SessionAffinityService, type Stickiness } from './session-affinity.service';

/**
 * The Mixture of Models behind rosetta/auto: the fitted artefact (ROUTER_ARTEFACT, or the one
 * shipped with the catalog) loaded once at start; decisions are pure and sub-millisecond.
 */
@Injectable()
export class MixtureService implements OnModuleInit {
  private artefact!: RouterArtefact;

  constructor(
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Optional() private readonly affinity?: SessionAffinityService,
  ) {}

  /** The conversation's session and the model it stuck to (rosetta/auto only; see SessionAffinityService). */
  session(request: CanonicalRequest, key: ApiKeyRecord | undefined): Promise<Stickiness | undefined> {
    return this.affinity?.lookup(request, key) ?? Promise.resolve(undefined);
  }

  /** The model that served the session, kept for its next turn. */
  remember(sticky: Stickiness | undefined, model: string): void {
    this.affinity?.remember(sticky, model);
  }

  onModuleInit(): void {
    const { path, artefact } = loadRouterArtefact(this.config.routerArtefact);
    this.artefact = artefact;
    this.logger.info({ artefact: path, mode: this.artefact.defaults.mode }, 'router: artefact loaded');
  }

  /** Whether rosetta/auto can score a model: fitted data, a catalog profile or a declared prior. */
  routable(candidate: Candidate): boolean {
    return qualityBasisOf(candidate, this.artefact) !== null;
  }

  decide(request: CanonicalRequest, candidates: Candidate[], knob: number | undefined): RouteDecision {
    const text = promptTextOf(request);
    // docs/decisions/0012: a tool turn is answered by one model (tool calls do not compare, and a
    // tool loop stays on its model); a stream cascades only on multiple choice, whose short
    // non-streamed probes settle it before the first byte.
    const mode = request.tools?.length || (request.stream && answerKindOf(text) !== 'choice') ? 'single' : undefined;
    return decide({ text, candidates, knob, mode, request }, this.artefact);
  }

  cascadeStep(request: CanonicalRequest, decision: RouteDecision, responses: CascadeResponse[]): CascadeStep {
    return decideCascadeStep({ text: promptTextOf(request), plan: decision.plan, responses, knob: decision.knob }, this.artefact);
  }
}

/** How session affinity shaped a decision: a new session, kept on its model, escalated, or its model no longer eligible. */
export type AffinityOutcome = 'new' | 'kept' | 'escalated' | 'lost';

/** Quality the router must gain to move a session to a stronger model (and lose its warm cache). */
const ESCALATION_MARGIN = 0.05;

/**
 * Keeps a session on the model it was served by unless the router now expects clearly better
 * quality elsewhere (an escalation), and never switches mid tool loop. A kept session is served in
 * single mode by its model.
 */
export function applyAffinity(decision: RouteDecision, sticky: Stickiness): { decision: RouteDecision; affinity: AffinityOutcome } {
  if (!sticky.model) return { decision, affinity: 'new' };
  const kept = decision.candidates.find((c) => c.id === sticky.model);
  if (!kept) return { decision, affinity: 'lost' };
  if (decision.chosen === sticky.model) return { decision, affinity: 'kept' };
  const chosen = decision.candidates.find((c) => c.id === decision.chosen);
  if (!sticky.toolLoop && chosen && chosen.quality > kept.quality + ESCALATION_MARGIN) return { decision, affinity: 'escalated' };
  const why = `session affinity: staying on ${sticky.model}${sticky.toolLoop ? ' mid tool loop' : ' while its cache is warm'}`;
  return { decision: { ...decision, chosen: sticky.model, mode: 'single', plan: [sticky.model], reasons: [why, ...decision.reasons] }, affinity: 'kept' };
}

/** The decision in one header line: what was chosen, how, and the strongest reasons. */
export function summariseDecision(decision: RouteDecision): string {
  const signal = (name: string) => decision.signals.find((s) => s.name === name);
  const category = signal('category');
  const difficulty = signal('difficulty');
  const chosen = decision.candidates.find((c) => c.id === decision.chosen);
  const parts = [
    `model=${decision.chosen}`,
    `mode=${decision.mode}`,
    `knob=${decision.knob.toFixed(2)}`,
    decision.mode === 'cascade' ? `plan=${decision.plan.join('>')}` : undefined,
    // Where the chosen model's expected quality came from: fitted data, the catalog profile, or an operator's prior.
    chosen ? `basis=${chosen.basis}` : undefined,
    difficulty ? `difficulty=${String(difficulty.value)}` : undefined,
    category ? `category=${String(category.value)}(${category.confidence.toFixed(2)})` : undefined,
    decision.reasons[0] ? `reason=${decision.reasons[0]}` : undefined,
  ];
  return parts.filter(Boolean).join('; ');
}
