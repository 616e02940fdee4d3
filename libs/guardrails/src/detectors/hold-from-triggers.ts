/**
 * For detectors whose findings all begin at a fixed trigger (`-----BEGIN`, `eyJ`, a key prefix):
 * nothing before the first trigger in the last `window` characters can still change, and past
 * that only a trigger cut off at the end (the text ends with its first characters) could.
 * Streams then hold back a few characters instead of a whole window.
 */
export function holdFromTriggers(text: string, triggers: readonly string[], window: number): number {
  const tailStart = Math.max(0, text.length - window);
  let hold = text.length;
  for (const trigger of triggers) {
    const at = text.indexOf(trigger, tailStart);
    if (at >= 0 && at < hold) hold = at;
    const partial = cutOffAt(text, trigger, tailStart);
    if (partial < hold) hold = partial;
  }
  return Math.max(0, hold - 2);
}

/** Where the text ends with the first characters of trigger (not all of them), at or after from; or the text's length. */
function cutOffAt(text: string, trigger: string, from: number): number {
  for (let length = Math.min(trigger.length - 1, text.length - from); length > 0; length -= 1) {
    if (endsWithStartOf(text, trigger, length)) return text.length - length;
  }
  return text.length;
}

function endsWithStartOf(text: string, trigger: string, length: number): boolean {
  const offset = text.length - length;
  for (let k = 0; k < length; k += 1) if (text.charCodeAt(offset + k) !== trigger.charCodeAt(k)) return false;
  return true;
}
