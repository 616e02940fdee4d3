import { type Detector } from '../finding';

/** A detector's findings with the text each covers, so expectations read as the input does. */
export function spans(detectors: Detector | readonly Detector[], text: string): Array<{ kind: string; text: string }> {
  const found: Array<{ kind: string; start: number; end: number }> = [];
  for (const detector of Array.isArray(detectors) ? detectors : [detectors]) detector.find(text, found, 0, { steps: 0 });
  return found.sort((a, b) => a.start - b.start).map((f) => ({ kind: f.kind, text: text.slice(f.start, f.end) }));
}
