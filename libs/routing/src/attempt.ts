import type { UpstreamTarget } from '@rosetta/providers';

/** One way to serve the request: a model (public id) on one provider endpoint. */
export interface Attempt {
  model: string;
  target: UpstreamTarget;
}

export interface RoutePlan {
  attempts: Attempt[];
  /** For rosetta/auto: the decision and its main reasons (x-rosetta-route). */
  route?: string;
}
