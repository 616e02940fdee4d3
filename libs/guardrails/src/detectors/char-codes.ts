/** Character tests on UTF-16 code units; the detectors compare codes, never build substrings per character. */

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

export function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

export function isAlnum(code: number): boolean {
  return isDigit(code) || isUpper(code) || isLower(code);
}

/** Letters, digits and underscore: what joins a token to its neighbours. */
export function isWordCode(code: number): boolean {
  return isAlnum(code) || code === 95;
}

export function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** The code at i, or -1 outside the text, so boundary tests need no range checks. */
export function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}

/**
 * The next index at or after `from` where a global regex matches, or -1. Used only with
 * fixed-length patterns (one character class, literal alternations), which V8 runs in time
 * linear in the text; it finds candidates far faster than a loop over every character.
 */
export function nextMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index;
}

/** Digits with single separators between them (e.g. `4111 1111-1111`), read from a digit at start. */
export interface DigitRun {
  end: number;
  digits: number;
  /** Lengths of the digit groups, in order. */
  groups: number[];
  /** The separators used, in order (one per gap between groups). */
  separators: string;
}

/**
 * Reads the maximal run of digits joined by single separators from `separators`, starting at a
 * digit. A separator not followed by a digit ends the run (it is not part of it). Stops counting
 * groups past `maxDigits` digits (the run is still read to its end so callers skip it whole).
 */
export function readDigitRun(text: string, start: number, separators: string, maxDigits: number): DigitRun {
  const groups: number[] = [];
  let seps = '';
  let digits = 0;
  let group = 0;
  let i = start;
  for (;;) {
    const code = codeAt(text, i);
    if (isDigit(code)) {
      group += 1;
      digits += 1;
      i += 1;
      continue;
    }
    if (code >= 0 && separators.includes(text[i] as string) && isDigit(codeAt(text, i + 1))) {
      if (digits <= maxDigits) {
        groups.push(group);
        seps += text[i];
      }
      group = 0;
      i += 1;
      continue;
    }
    break;
  }
  if (digits <= maxDigits) groups.push(group);
  return { end: i, digits, groups, separators: seps };
}
