import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum, isDigit, isUpper, isWordCode, nextMatch } from './char-codes';
import { holdFromRun } from './hold-from-run';
import { IBAN_LENGTHS, MAX_IBAN_LENGTH } from './iban-lengths';

/** Where an IBAN can begin; fixed length, so linear. */
const COUNTRY_AND_CHECK = /[A-Z]{2}[0-9]{2}/g;
/** 34 characters, printed in groups of four: eight spaces. */
const WINDOW = MAX_IBAN_LENGTH + 8 + 2;

/**
 * IBANs: a known country code, two check digits and exactly that country's length of upper-case
 * letters and digits, written solid or in groups of four separated by single spaces, standing
 * alone, passing the ISO 7064 mod-97 check. Reads at most 42 characters from each candidate
 * (two capitals and two digits, not after a word character).
 */
export const ibanDetector: Detector = {
  kind: 'iban',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    meter.steps += text.length - from;
    for (let i = nextMatch(COUNTRY_AND_CHECK, text, from); i >= 0; i = nextMatch(COUNTRY_AND_CHECK, text, i + 1)) {
      meter.steps += 1;
      const length = isWordCode(codeAt(text, i - 1)) ? undefined : IBAN_LENGTHS[text.slice(i, i + 2)];
      if (length === undefined) continue;
      const end = readIban(text, i, length, meter);
      if (end > 0) found.push({ kind: 'iban', start: i, end });
    }
  },
  holdFrom: (text) => holdFromRun(text, (code) => isDigit(code) || isUpper(code) || code === 32, WINDOW),
};

/** The end of an IBAN of `length` characters from start, or -1. */
function readIban(text: string, start: number, length: number, meter: ScanMeter): number {
  let count = 0;
  let i = start;
  let remainder = 0;
  while (count < length) {
    meter.steps += 1;
    const code = codeAt(text, i);
    if (code === 32 && count > 0 && count % 4 === 0 && isAlnum(codeAt(text, i + 1))) {
      i += 1;
      continue;
    }
    if (!isDigit(code) && !isUpper(code)) return -1;
    count += 1;
    i += 1;
    // The check moves the first four characters to the end; they are folded in afterwards.
    if (count > 4) remainder = foldMod97(remainder, code);
  }
  if (isWordCode(codeAt(text, i))) return -1;
  for (let k = start; k < start + 4; k += 1) remainder = foldMod97(remainder, text.charCodeAt(k));
  return remainder === 1 ? i : -1;
}

/** Appends one IBAN character (a digit, or a letter as 10–35) to a running mod-97 remainder. */
function foldMod97(remainder: number, code: number): number {
  return isDigit(code) ? (remainder * 10 + code - 48) % 97 : (remainder * 100 + code - 55) % 97;
}
