import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { CanonicalRequest } from '@rosetta/canonical';
import {
  decide,
  decideCascadeStep,
  defaultArtefactPath,
  loadArtefact,
  promptTextOf,
  type Candidate,
  type CascadeResponse,
  type CascadeStep,
  type RouteDecision,
  type RouterArtefact,
} from '@rosetta/mixture';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';

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
  ) {}

  onModuleInit(): void {
    const path = this.config.routerArtefact ?? defaultArtefactPath();
    try {
      this.artefact = loadArtefact(path);
    } catch (error) {
      throw new Error(`ROUTER_ARTEFACT: cannot load '${path}': ${(error as Error).message}`);
    }
    this.logger.info({ artefact: path, mode: this.artefact.defaults.mode }, 'router: artefact loaded');
  }

  decide(request: CanonicalRequest, candidates: Candidate[], knob: number | undefined): RouteDecision {
    // Streams and tool turns are answered by one model: a cascade would have to hold them back.
    const mode = request.stream || request.tools?.length ? 'single' : undefined;
    return decide({ text: promptTextOf(request), candidates, knob, mode, request }, this.artefact);
  }

  cascadeStep(request: CanonicalRequest, decision: RouteDecision, responses: CascadeResponse[]): CascadeStep {
    return decideCascadeStep({ text: promptTextOf(request), plan: decision.plan, responses, knob: decision.knob }, this.artefact);
  }
}

/** The decision in one header line: what was chosen, how, and the strongest reasons. */
export function summariseDecision(decision: RouteDecision): string {
  const signal = (name: string) => decision.signals.find((s) => s.name === name);
  const category = signal('category');
  const parts = [
    `model=${decision.chosen}`,
    `mode=${decision.mode}`,
    `knob=${decision.knob.toFixed(2)}`,
    decision.mode === 'cascade' ? `plan=${decision.plan.join('>')}` : undefined,
    category ? `category=${String(category.value)}(${category.confidence.toFixed(2)})` : undefined,
    decision.reasons[0] ? `reason=${decision.reasons[0]}` : undefined,
  ];
  return parts.filter(Boolean).join('; ');
}
