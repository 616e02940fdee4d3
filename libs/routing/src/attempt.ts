import type { EndpointPricing } from '@rosetta/registry';
import type { RouteDecision } from '@rosetta/mixture';
import type { UpstreamTarget } from '@rosetta/providers';
import type { AffinityOutcome } from './mixture.service';

/** One way to serve the request: a model (public id) on one provider endpoint. */
export interface Attempt {
  model: string;
  /** `<provider>/<upstream model>`: health and circuit-breaker key. */
  key: string;
  target: UpstreamTarget;
  pricing: EndpointPricing;
}

export interface RoutePlan {
  attempts: Attempt[];
  /** For rosetta/auto: the decision and its main reasons (x-rosetta-route). */
  route?: string;
  /** For rosetta/auto: the router's whole decision (POST /v1/route, cascades). */
  decision?: RouteDecision;
  /** For rosetta/auto: how session affinity shaped the decision. */
  affinity?: AffinityOutcome;
}
