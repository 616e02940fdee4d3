/**
 * AIQ, RouterBench's one-number summary of a router's cost–quality curve (Hu et al. 2024,
 * arXiv 2403.12031, §3): the area under the router's non-decreasing convex hull over a cost range,
 * divided by the width of that range.
 *
 * - The hull: a router is a family of policies (one per knob value); mixing two of them at random
 *   reaches any point on the segment between them, and spending more never has to lose quality,
 *   so what the router can reach is the upper concave hull of its (cost, accuracy) points, held
 *   flat to the right of its most accurate point.
 * - The range [c_min, c_max] is the caller's; `router:eval` uses the cheapest and the dearest
 *   single model on the same rows, so every router evaluated on those rows is integrated over the
 *   same range and AIQs compare. Left of the router's cheapest point the hull is 0 (nothing it can
 *   reach costs less), as in RouterBench's reference code.
 */

export interface CostPoint {
  cost: number;
  accuracy: number;
}

/** Upper concave hull, then cut at its most accurate point (the non-decreasing part). */
export function nonDecreasingHull(points: CostPoint[]): CostPoint[] {
  const sorted = [...points].filter((p) => Number.isFinite(p.cost) && Number.isFinite(p.accuracy)).sort((a, b) => a.cost - b.cost || b.accuracy - a.accuracy);
  const hull: CostPoint[] = [];
  for (const p of sorted) {
    if (hull.length > 0 && (hull[hull.length - 1] as CostPoint).cost === p.cost) continue; // same cost: the first is the most accurate
    while (hull.length >= 2) {
      const a = hull[hull.length - 2] as CostPoint;
      const b = hull[hull.length - 1] as CostPoint;
      // b lies on or under the segment a→p: not on the upper hull.
      if ((b.accuracy - a.accuracy) * (p.cost - a.cost) <= (p.accuracy - a.accuracy) * (b.cost - a.cost)) hull.pop();
      else break;
    }
    hull.push(p);
  }
  let top = 0;
  hull.forEach((p, i) => {
    if (p.accuracy > (hull[top] as CostPoint).accuracy) top = i;
  });
  return hull.slice(0, top + 1);
}

/** The hull's accuracy at a cost: 0 below its first point, flat beyond its last, linear between. */
export function hullAt(hull: CostPoint[], cost: number): number {
  const first = hull[0];
  if (!first || cost < first.cost) return 0;
  for (let i = 1; i < hull.length; i++) {
    const b = hull[i] as CostPoint;
    if (cost <= b.cost) {
      const a = hull[i - 1] as CostPoint;
      return a.accuracy + ((b.accuracy - a.accuracy) * (cost - a.cost)) / (b.cost - a.cost);
    }
  }
  return (hull[hull.length - 1] as CostPoint).accuracy;
}

/** (1 / (c_max − c_min)) ∫ hull(c) dc over [c_min, c_max]; the hull is piecewise linear, so exact. */
export function aiq(points: CostPoint[], range: { min: number; max: number }): number {
  const hull = nonDecreasingHull(points);
  const { min, max } = range;
  if (hull.length === 0 || !(max > min)) return 0;
  const start = (hull[0] as CostPoint).cost;
  const xs = [min, ...hull.map((p) => p.cost).filter((c) => c > min && c < max), max];
  let area = 0;
  for (let i = 1; i < xs.length; i++) {
    const a = xs[i - 1] as number;
    const b = xs[i] as number;
    // Left of the hull's first point it is 0; that point is a breakpoint, so no interval straddles it.
    if (b > start) area += ((hullAt(hull, a) + hullAt(hull, b)) / 2) * (b - a);
  }
  return area / (max - min);
}
