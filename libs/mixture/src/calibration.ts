/**
 * The knob. Routing maximises quality − λ·cost; λ ≥ 0 is in "accuracy points per USD" and has
 * no intuitive scale, so the request-facing knob ∈ [0, 1] (0 = cost-saving, 1 = quality-first)
 * is mapped to λ through the training cost/quality curve: for every λ of a log-spaced grid the
 * fitter records the training cost and accuracy; with both normalised to [0, 1], a grid point's
 * knob value is its arc length along that curve from the cheapest end, divided by the total.
 * Equal knob steps therefore move equal distances along the curve (in the spirit of RouteLLM's
 * single calibrated threshold). Between grid points λ is interpolated linearly in asinh(λ).
 */

/** λ grid: 0, then 10^-1 … 10^4.5 in eighths of a decade, then 1e7 (≈ always the cheapest). */
export function defaultLambdaGrid(): number[] {
  const grid = [0];
  for (let i = 0; i <= 44; i++) grid.push(Number((10 ** (-1 + i / 8)).toPrecision(6)));
  grid.push(1e7);
  return grid;
}

/** Knob position of every λ from the training curve (λ ascending ⇒ knob descending). */
export function knobPositions(cost: number[], correct: number[]): number[] {
  const n = cost.length;
  const span = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];
  const [c0, c1] = span(cost);
  const [a0, a1] = span(correct);
  const nc = (x: number): number => (c1 > c0 ? (x - c0) / (c1 - c0) : 0);
  const na = (x: number): number => (a1 > a0 ? (x - a0) / (a1 - a0) : 0);
  const len = new Array<number>(n).fill(0);
  for (let i = n - 2; i >= 0; i--) {
    const d = Math.hypot(nc(cost[i] as number) - nc(cost[i + 1] as number), na(correct[i] as number) - na(correct[i + 1] as number));
    len[i] = (len[i + 1] as number) + d;
  }
  const total = len[0] as number;
  if (total <= 0) return len.map((_, i) => (n > 1 ? 1 - i / (n - 1) : 1));
  // Strictly decreasing (flat stretches get tiny steps) so the inverse map is well defined.
  const pos = len.map((l) => l / total);
  for (let i = n - 2; i >= 0; i--) if ((pos[i] as number) < (pos[i + 1] as number) + 1e-6) pos[i] = (pos[i + 1] as number) + 1e-6;
  const top = pos[0] as number;
  return pos.map((p) => Number((p / top).toFixed(9)));
}

/** λ for a knob value, interpolated in asinh(λ) between calibrated grid points. */
export function lambdaForKnob(lambdas: number[], knobs: number[], knob: number): number {
  const k = Math.max(0, Math.min(1, knob));
  const n = lambdas.length;
  if (n === 0) return 0;
  if (k >= (knobs[0] as number)) return lambdas[0] as number;
  if (k <= (knobs[n - 1] as number)) return lambdas[n - 1] as number;
  for (let i = 0; i < n - 1; i++) {
    const hi = knobs[i] as number;
    const lo = knobs[i + 1] as number;
    if (k <= hi && k >= lo) {
      const f = hi === lo ? 0 : (hi - k) / (hi - lo);
      const u = Math.asinh(lambdas[i] as number) * (1 - f) + Math.asinh(lambdas[i + 1] as number) * f;
      return Math.sinh(u);
    }
  }
  return lambdas[n - 1] as number;
}

/** Index of the grid λ nearest to `lambda` in asinh scale. */
export function nearestLambdaIndex(lambdas: number[], lambda: number): number {
  const u = Math.asinh(lambda);
  let best = 0;
  lambdas.forEach((l, i) => {
    if (Math.abs(Math.asinh(l) - u) < Math.abs(Math.asinh(lambdas[best] as number) - u)) best = i;
  });
  return best;
}

/**
 * The grid point a prompt is routed with at a knob value (cascade mode). Between two calibrated
 * points the prompt goes to one of them with probability given by the knob's position between
 * them, drawn from a hash of the prompt text: deterministic per prompt, and in aggregate the
 * router moves continuously along the curve between the two policies (RouterBench's
 * interpolation between routers) instead of jumping from one plan to the next.
 */
export function gridPointFor(lambdas: number[], knobs: number[], knob: number, text: string): number {
  const k = Math.max(0, Math.min(1, knob));
  const n = lambdas.length;
  if (n <= 1 || k >= (knobs[0] as number)) return 0;
  for (let i = 0; i < n - 1; i++) {
    const hi = knobs[i] as number;
    const lo = knobs[i + 1] as number;
    if (k <= hi && k >= lo) {
      const f = hi === lo ? 0 : (hi - k) / (hi - lo);
      return unitHash(text) < f ? i + 1 : i;
    }
  }
  return n - 1;
}

/** FNV-1a of the text mapped to [0, 1). */
export function unitHash(text: string): number {
  let h = 0x811c9dc5;
  const step = Math.max(1, Math.floor(text.length / 4096));
  for (let i = 0; i < text.length; i += step) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 4294967296;
}

/**
 * The knob at which the training curve spends `targetCost` (λ ascending ⇒ cost descending),
 * interpolated between grid points the way `gridPointFor` mixes their policies.
 */
export function knobAtCost(knobs: number[], cost: number[], targetCost: number): number {
  const n = knobs.length;
  if (n === 0) return 1;
  if (targetCost >= (cost[0] as number)) return knobs[0] as number;
  for (let i = 0; i < n - 1; i++) {
    const hi = cost[i] as number;
    const lo = cost[i + 1] as number;
    if (targetCost <= hi && targetCost >= lo) {
      const f = hi === lo ? 0 : (targetCost - lo) / (hi - lo);
      return (knobs[i + 1] as number) + f * ((knobs[i] as number) - (knobs[i + 1] as number));
    }
  }
  return knobs[n - 1] as number;
}
