/**
 * Where the trailing run of `isRunCode` characters starts, looking back at most `window`. For
 * detectors whose findings are one unbroken run of such characters (digits and separators, hex
 * and colons, a token's alphabet), a finding that more text could still create or change
 * reaches the end of the text, so it lies inside this run: everything before it is decided.
 */
export function trailingRunStart(text: string, isRunCode: (code: number) => boolean, window: number): number {
  const limit = Math.max(0, text.length - window);
  let start = text.length;
  while (start > limit && isRunCode(text.charCodeAt(start - 1))) start -= 1;
  return start;
}

/**
 * What a stream holds back for such a detector: the trailing run and two characters of
 * look-behind, which is nothing at all after plain words.
 */
export function holdFromRun(text: string, isRunCode: (code: number) => boolean, window: number): number {
  return Math.max(0, trailingRunStart(text, isRunCode, window) - 2);
}
