/**
 * Cheap text detectors behind the signals. Each returns a score in 0..1 from regular
 * expressions over at most the first 400 and last 1,600 characters of the prompt (a dozen regex
 * passes over more text would blow the decision's latency budget on long prompts).
 */

/** The window the detectors look at. */
export function detectorWindow(text: string): string {
  if (text.length <= 2000) return text;
  return text.slice(0, 400) + '\n' + text.slice(text.length - 1600);
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

const CODE_KEYWORDS = /\b(def|function|return|import|class|const|let|var|public|static|void|#include|lambda|elif|printf|console\.log|SELECT|FROM|WHERE)\b|=>|\+\+|!==|===|::/g;
const CODE_REQUEST = /\b(write|implement|fix|debug|refactor|complete) (a |an |the )?(python |javascript |typescript |java |c\+\+ |rust |go |sql |bash )?(function|program|script|code|class|method|query|regex)\b|\b(python|javascript|typescript|java|c\+\+|rust|golang|sql|bash) (function|program|code|script)\b/i;

/** Evidence of code in (or code requested by) the prompt. */
export function codeScore(raw: string): number {
  const text = detectorWindow(raw);
  let s = 0;
  if (text.includes('```')) s += 0.6;
  if (CODE_REQUEST.test(text)) s += 0.55;
  if (/^\s*(def |class |function |#include|import |from \S+ import)/m.test(text)) s += 0.4;
  const lines = text.split('\n').length;
  const keywords = count(CODE_KEYWORDS, text);
  s += Math.min(0.4, keywords / Math.max(4, lines));
  const semicolonLines = count(/;\s*$/gm, text);
  s += Math.min(0.3, semicolonLines / Math.max(3, lines));
  const braces = count(/[{}]/g, text);
  s += Math.min(0.2, braces / Math.max(20, text.length / 50));
  return clamp01(s);
}

const MATH_WORDS = /\b(calculate|compute|solve|equation|integral|derivative|probability|percent(age)?|sum of|product of|how many|how much|what is the value|evaluate|simplify|prime|divisible|remainder|area|perimeter|volume|ratio|average|geometric|arithmetic|theorem|prove)\b/gi;

/** Evidence of a mathematical task: digits, operators, LaTeX, word-problem vocabulary. */
export function mathScore(raw: string): number {
  const text = detectorWindow(raw);
  let s = 0;
  if (/\\(frac|sqrt|int|sum|prod|cdot|times|leq|geq|alpha|beta|pi)\b|\$[^$\n]+\$/.test(text)) s += 0.5;
  const digits = count(/\d/g, text);
  s += Math.min(0.3, (digits / Math.max(1, text.length)) * 6);
  s += Math.min(0.3, count(/\d\s*[-+*/^=×÷<>]\s*[\d(x-z]/g, text) * 0.1);
  s += Math.min(0.45, count(MATH_WORDS, text) * 0.15);
  if (/\b[x-z]\s*[=^]\s*-?\d|\bf\(x\)/.test(text)) s += 0.25;
  // Word problems: several numbers and a question about a quantity.
  if (count(/\d+(\.\d+)?/g, text) >= 2 && /\b(how (many|much|long|far|fast|old)|in total|altogether|remain(s|ing)?|left over)\b/i.test(text)) s += 0.25;
  return clamp01(s);
}

/** Script of a letter by code point range (no regex per character: this runs on every prompt). */
function scriptOf(c: number): string | null {
  if (c < 0x80) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 'latin' : null;
  if (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) return 'latin';
  if (c >= 0x370 && c <= 0x3ff) return 'greek';
  if (c >= 0x400 && c <= 0x52f) return 'cyrillic';
  if (c >= 0x590 && c <= 0x5ff) return 'hebrew';
  if ((c >= 0x600 && c <= 0x6ff) || (c >= 0x750 && c <= 0x77f)) return 'arabic';
  if (c >= 0x900 && c <= 0x97f) return 'devanagari';
  if (c >= 0xe00 && c <= 0xe7f) return 'thai';
  if (c >= 0x1e00 && c <= 0x1eff) return 'latin';
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)) return 'cjk';
  if (c >= 0x2000 && c <= 0x303f) return null;
  return /\p{L}/u.test(String.fromCharCode(c)) ? 'other' : null;
}

/** The dominant writing system of the letters in the prompt and its share of them. */
export function dominantScript(raw: string): { script: string; share: number } {
  const text = detectorWindow(raw);
  const counts: Record<string, number> = {};
  let letters = 0;
  let latin = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) latin++;
      continue;
    }
    const name = scriptOf(c);
    if (name === null) continue;
    letters++;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  counts.latin = (counts.latin ?? 0) + latin;
  letters += latin;
  if (letters === 0) return { script: 'none', share: 0 };
  let best = 'other';
  let bestN = -1;
  for (const [name, n] of Object.entries(counts)) if (n > bestN) [best, bestN] = [name, n];
  return { script: best, share: bestN / letters };
}

/**
 * Options of the last multiple-choice block (`A) …`, `(B) …`, `C. …`, `1) …` on their own
 * lines, consecutive from A or 1): 0 when the prompt is not multiple choice.
 */
export function choiceOptions(raw: string): number {
  const text = raw.length > 1600 ? raw.slice(-1600) : raw;
  const re = /^\s*\(?([A-Ha-h]|[1-8])[).:]\s+\S/gm;
  let run = 0;
  let best = 0;
  let expected = '';
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const label = (m[1] as string).toUpperCase();
    if (label === 'A' || label === '1') run = 1;
    else if (label === expected) run++;
    else run = 0;
    expected = String.fromCharCode(label.charCodeAt(0) + 1);
    if (run >= 2) best = run;
  }
  return best;
}
