import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isUpper } from './char-codes';
import { holdFromTriggers } from './hold-from-triggers';

const BEGIN = '-----BEGIN ';
const TAIL = 'PRIVATE KEY-----';
const END = '-----END ';
/** Longest label before PRIVATE KEY we accept (`ENCRYPTED `, `OPENSSH `, `RSA `, `EC `, `DSA `...). */
const MAX_LABEL = 24;
/**
 * The most a block may span. A 4096-bit RSA key in PKCS#8 PEM is about 3.3 KB; 8 KB leaves room
 * for encrypted and 8192-bit keys. A block without its END line within this is redacted up to
 * here: a truncated key is still a secret.
 */
export const MAX_PEM_BLOCK = 8192;

/**
 * PEM private-key blocks, from `-----BEGIN <label>PRIVATE KEY-----` to the next `-----END ` line's
 * closing dashes. Found with indexOf from each BEGIN, each searched span bounded by MAX_PEM_BLOCK
 * and the scan resuming after the block, so the work is linear in the text.
 */
export const privateKeyDetector: Detector = {
  kind: 'private_key',
  window: MAX_PEM_BLOCK + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    // The next END line is searched once and reused by later headers before it, so a text of
    // many unterminated headers is still read once, not once per header.
    let endLine = -2;
    let begin = text.indexOf(BEGIN, from);
    while (begin >= 0) {
      meter.steps += 1;
      const headerEnd = readHeader(text, begin + BEGIN.length);
      if (headerEnd < 0) {
        begin = text.indexOf(BEGIN, begin + 1);
        continue;
      }
      if (endLine !== -1 && endLine < headerEnd) endLine = text.indexOf(END, headerEnd);
      const limit = Math.min(text.length, begin + MAX_PEM_BLOCK);
      const close = endLine >= 0 && endLine < limit ? closingDashes(text, endLine + END.length) : -1;
      const end = close >= 0 && close <= limit ? close : limit;
      meter.steps += end - begin;
      found.push({ kind: 'private_key', start: begin, end });
      begin = text.indexOf(BEGIN, end);
    }
  },
  holdFrom: (text) => holdFromTriggers(text, [BEGIN], MAX_PEM_BLOCK + 2),
};

/** The end of the `-----` closing an END line's label that starts at i, or -1. */
function closingDashes(text: string, i: number): number {
  const at = text.slice(i, i + MAX_LABEL + TAIL.length).indexOf('-----');
  return at < 0 ? -1 : i + at + 5;
}

/** The end of `<LABEL >PRIVATE KEY-----` starting at i, or -1. */
function readHeader(text: string, i: number): number {
  let j = i;
  while (j - i <= MAX_LABEL && (isUpper(codeAt(text, j)) || codeAt(text, j) === 32)) {
    if (text.startsWith(TAIL, j)) return j + TAIL.length;
    j += 1;
  }
  return -1;
}
