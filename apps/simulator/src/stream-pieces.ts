import { tokenize } from './reply-limits';

/** Groups tokens `size` at a time; each group becomes one streamed delta. */
export function groupTokens(text: string, size: number): string[] {
  const tokens = tokenize(text);
  const groups: string[] = [];
  for (let i = 0; i < tokens.length; i += size) groups.push(tokens.slice(i, i + size).join(''));
  return groups;
}

/** Tokens in one group produced by `groupTokens`. */
export function groupTokenCount(group: string): number {
  return tokenize(group).length;
}

/** Splits argument JSON into at least two pieces (about four characters per token). */
export function splitArguments(json: string, chunkTokens: number): string[] {
  const size = Math.max(1, Math.min(4 * chunkTokens, Math.ceil(json.length / 2)));
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
  return pieces;
}
