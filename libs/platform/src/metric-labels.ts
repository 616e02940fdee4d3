import type { LabelValues } from 'prom-client';

/** Label values in the order of the metric's label names. */
export type Labels = readonly string[];
export type LabelObject = LabelValues<string>;

/** prom-client's label object for `values` (in `names` order). */
export function labelObject(names: Labels, values: Labels): LabelObject {
  const object: LabelObject = {};
  for (let i = 0; i < names.length; i++) object[names[i]!] = values[i] ?? '';
  return object;
}

/** A series' key: its label values, joined by a character no value of ours contains. */
export const seriesKey = (values: Labels): string => (values.length === 1 ? values[0]! : values.join('\u0001'));
