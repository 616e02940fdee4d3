/**
 * For detectors whose findings all begin at a fixed trigger (`-----BEGIN`, `eyJ`, a key prefix):
 * nothing before the first trigger in the last `window` characters can still change, and past
 * that only a trigger cut off at the end could. Streams then hold back a few characters instead
 * of a whole window.
 */
export function holdFromTriggers(text: string, triggers: readonly string[], window: number, lookBehind = 0): number {
  const tailStart = Math.max(0, text.length - window);
  let hold = text.length;
  for (const trigger of triggers) {
    const at = text.indexOf(trigger, tailStart);
    if (at >= 0 && at < hold) hold = at;
    // A trigger whose first characters end the text may yet complete.
    const partial = text.length - trigger.length + 1;
    if (partial < hold) hold = Math.max(tailStart, partial);
  }
  return Math.max(0, hold - lookBehind - 2);
}
