/**
 * Hashed word uni/bi-gram features shared by the category classifier and the quality model.
 * Long prompts are cut to their head and tail (`focusText`) so feature extraction stays O(1) in
 * the prompt size: few-shot prompts put the actual question at the end, instructions at the top.
 */

export interface SparseVector {
  idx: number[];
  val: number[];
}

export const DEFAULT_HASH_BITS = 18;
const HEAD_CHARS = 600;
const TAIL_CHARS = 2400;

/** First 600 and last 2,400 characters of long texts. */
export function focusText(text: string): string {
  if (text.length <= HEAD_CHARS + TAIL_CHARS) return text;
  return text.slice(0, HEAD_CHARS) + '\n' + text.slice(text.length - TAIL_CHARS);
}

/** 32-bit FNV-1a. */
export function fnv1a(s: string): number {
  return fnvContinue(0x811c9dc5, s);
}

/** CJK ideographs, kana, hangul: one word per character. */
function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff);
}

function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // Non-ASCII letters (accented Latin, Cyrillic, Greek, Arabic, …) except punctuation blocks.
  return !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xff00 && c <= 0xff0f) && c !== 0xa0 && !isCjk(c);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200b);
}

let memo: { text: string; limit: number; words: string[] } | undefined;

/**
 * Lower-cased words (a hand-written scanner: several times faster than a Unicode regex): runs of
 * letters/digits/underscore; CJK characters and punctuation marks are words of their own.
 */
export function words(text: string, limit = 1500): string[] {
  if (memo && memo.limit === limit && memo.text === text) return memo.words;
  const out: string[] = [];
  let i = 0;
  while (i < text.length && out.length < limit) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (isCjk(c) || !isWordChar(c)) {
      out.push(text[i] as string);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && isWordChar(text.charCodeAt(j))) j++;
    out.push(text.slice(i, j).toLowerCase());
    i = j;
  }
  memo = { text, limit, words: out };
  return out;
}

/** FNV-1a continued from `h0` over `s` (so fnv1a(a + b) = fnvContinue(fnv1a(a), b)). */
export function fnvContinue(h0: number, s: string): number {
  let h = h0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

let hashMemo: { text: string; hashes: Uint32Array } | undefined;

/** 32-bit FNV-1a hashes of the uni- and bi-grams of a text's focus (bigram = hash of "w1 w2"). */
export function ngramHashes(text: string): Uint32Array {
  if (hashMemo && hashMemo.text === text) return hashMemo.hashes;
  const ws = words(focusText(text));
  const hashes = new Uint32Array(Math.max(0, 2 * ws.length - 1));
  let n = 0;
  let prev = -1;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    const h = fnvContinue(0x811c9dc5, w);
    hashes[n++] = h;
    if (prev >= 0) hashes[n++] = fnvContinue(fnvContinue(prev, ' '), w);
    prev = h;
  }
  hashMemo = { text, hashes };
  return hashes;
}

/** Term counts of hashed uni- and bi-grams, folded into 2^bits buckets. */
export function hashedCounts(text: string, bits = DEFAULT_HASH_BITS): Map<number, number> {
  const mask = (1 << bits) - 1;
  const counts = new Map<number, number>();
  for (const h of ngramHashes(text)) {
    const k = h & mask;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Document frequencies of hashed features over a corpus. */
export function documentFrequencies(docs: Map<number, number>[]): Map<number, number> {
  const df = new Map<number, number>();
  for (const d of docs) for (const k of d.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  return df;
}

export interface IdfTable {
  docs: number;
  /** bucket → document frequency (buckets seen in at least `minDf` training documents). */
  df: Map<number, number>;
}

export function idfOf(table: IdfTable, bucket: number): number {
  const df = table.df.get(bucket) ?? 0;
  return Math.log((table.docs + 1) / (df + 1)) + 1;
}

/** Sublinear TF × IDF, L2-normalised, indices ascending. */
export function tfidfVector(counts: Map<number, number>, table: IdfTable): SparseVector {
  const entries: Array<[number, number]> = [];
  let norm = 0;
  for (const [k, tf] of counts) {
    const w = (1 + Math.log(tf)) * idfOf(table, k);
    entries.push([k, w]);
    norm += w * w;
  }
  entries.sort((a, b) => a[0] - b[0]);
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return { idx: entries.map((e) => e[0]), val: entries.map((e) => e[1] * inv) };
}

/** Keeps the `k` largest weights (renormalised): compact vectors for the stored index. */
export function topK(v: SparseVector, k: number): SparseVector {
  if (v.idx.length <= k) return v;
  const order = v.val.map((x, i) => [x, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, k);
  order.sort((a, b) => (v.idx[a[1]] as number) - (v.idx[b[1]] as number));
  const val = order.map((o) => o[0]);
  const n = Math.sqrt(val.reduce((s, x) => s + x * x, 0)) || 1;
  return { idx: order.map((o) => v.idx[o[1]] as number), val: val.map((x) => x / n) };
}

/** Dot product of two sparse vectors with ascending indices. */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let s = 0;
  while (i < a.idx.length && j < b.idx.length) {
    const x = a.idx[i] as number;
    const y = b.idx[j] as number;
    if (x === y) s += (a.val[i++] as number) * (b.val[j++] as number);
    else if (x < y) i++;
    else j++;
  }
  return s;
}
