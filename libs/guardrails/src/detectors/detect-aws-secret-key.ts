import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum } from './char-codes';

const KEY_LENGTH = 40;
const MAX_GAP = 8;
/**
 * The names an AWS secret key goes by in config files, env vars and SDK code. A bare 40-character
 * base64 string is too common to take on its own, so the secret key is only found after its name.
 * Linear: a literal alternation with no quantifier, each attempt bounded by the longest name.
 * One global object, its lastIndex set before each use (nothing runs between its uses).
 */
const NAME = /aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key/gi;
const WINDOW = 'aws_secret_access_key'.length + MAX_GAP + KEY_LENGTH + 2;

/** AWS secret access keys: 40 base64 characters within a few quote, colon or `=` characters of their name. */
export const awsSecretKeyDetector: Detector = {
  kind: 'aws_secret_key',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    const names = NAME;
    names.lastIndex = Math.max(0, from - WINDOW);
    for (let name = names.exec(text); name !== null; name = names.exec(text)) {
      meter.steps += name[0].length;
      let start = name.index + name[0].length;
      while (start - names.lastIndex < MAX_GAP && isGapCode(codeAt(text, start))) start += 1;
      let end = start;
      while (end - start <= KEY_LENGTH && isBase64Code(codeAt(text, end))) end += 1;
      meter.steps += end - name.index;
      if (end - start === KEY_LENGTH && start >= from) found.push({ kind: 'aws_secret_key', start, end });
    }
  },
  holdFrom(text: string): number {
    // Only a key after a name whose gap and key characters run to the end is still open; a name
    // not yet complete puts its key after the end of the text, so nothing before it is held.
    const names = NAME;
    names.lastIndex = Math.max(0, text.length - WINDOW);
    for (let name = names.exec(text); name !== null; name = names.exec(text)) {
      let end = name.index + name[0].length;
      while (isGapCode(codeAt(text, end)) || isBase64Code(codeAt(text, end))) end += 1;
      if (end === text.length) return Math.max(0, name.index - 2);
    }
    return Math.max(0, text.length - 2);
  },
};

function isGapCode(code: number): boolean {
  // space, tab, " ' : = and the > of =>
  return code === 32 || code === 9 || code === 34 || code === 39 || code === 58 || code === 61 || code === 62;
}

function isBase64Code(code: number): boolean {
  return isAlnum(code) || code === 43 || code === 47 || code === 61;
}
