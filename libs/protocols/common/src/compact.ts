/**
 * The value without its undefined-valued keys, so converted values compare and serialise cleanly.
 * Builds a new object rather than `delete`-ing keys: a deleted key turns the object into a slow
 * dictionary for every later read and for JSON.stringify (2.4% of the hot path's CPU, issue 7).
 */
export function compact<T extends object>(value: T): T {
  const source = value as Record<string, unknown>;
  let clean = true;
  for (const key in source) {
    if (source[key] === undefined) {
      clean = false;
      break;
    }
  }
  if (clean) return value;
  const out: Record<string, unknown> = {};
  for (const key in source) if (source[key] !== undefined) out[key] = source[key];
  return out as T;
}
