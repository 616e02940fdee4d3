/**
 * Fitting the quality model (its live half, `QualityModel`, is in @rosetta/mixture's
 * quality-model.ts): the IDF table, one TF-IDF vector per training prompt, a centroid and a
 * Beta-smoothed accuracy per cluster, and every model's 0/1 label per row, packed for the artefact.
 * The features come from the runtime library's text-features so that the vectors stored here
 * are the ones the live router computes for a prompt.
 */
import {
  DEFAULT_HASH_BITS,
  type IdfTable,
  type LabelledRow,
  type PackedVector,
  type QualityParams,
  type SparseVector,
  documentFrequencies,
  hashedCounts,
  packBits,
  packU32,
  packUnit8,
  tfidfVector,
  topK,
} from '@rosetta/mixture';

export interface QualityOptions {
  k: number;
  /** β: pseudo-count of the cluster prior against the similarity-weighted neighbours. */
  shrinkage: number;
  /** Non-zero terms kept per stored training vector. */
  vectorTerms: number;
  /** Below this cosine to every centroid a prompt belongs to no cluster (global prior). */
  minClusterSimilarity: number;
}

export const DEFAULT_QUALITY_OPTIONS: QualityOptions = { k: 20, shrinkage: 20, vectorTerms: 48, minClusterSimilarity: 0.05 };

const countsCache = new Map<string, Map<number, number>>();

/** Hashed counts of a training prompt, cached (cross-validation refits many times). */
export function cachedCounts(prompt: string, bits = DEFAULT_HASH_BITS): Map<number, number> {
  const key = bits + ':' + prompt;
  let c = countsCache.get(key);
  if (!c) {
    c = hashedCounts(prompt, bits);
    countsCache.set(key, c);
  }
  return c;
}

const pack = (v: SparseVector): PackedVector => ({ idx: packU32(v.idx), val: packUnit8(v.val) });
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function centroidOf(vectors: SparseVector[], terms: number): SparseVector {
  const sum = new Map<number, number>();
  for (const v of vectors) v.idx.forEach((k, i) => sum.set(k, (sum.get(k) ?? 0) + (v.val[i] as number)));
  const idx = [...sum.keys()].sort((a, b) => a - b);
  const val = idx.map((k) => sum.get(k) as number);
  const n = Math.sqrt(val.reduce((s, x) => s + x * x, 0)) || 1;
  return topK({ idx, val: val.map((x) => x / n) }, terms);
}

/** Fits the quality model; each row's cluster is its task (`default` without one). */
export function fitQualityModel(rows: LabelledRow[], models: string[], options: QualityOptions = DEFAULT_QUALITY_OPTIONS): QualityParams {
  const counts = rows.map((r) => cachedCounts(r.prompt));
  const dfAll = documentFrequencies(counts);
  const df = new Map([...dfAll].filter(([, n]) => n >= 2));
  const table: IdfTable = { docs: rows.length, df };
  const vectors = counts.map((c) => topK(tfidfVector(c, table), options.vectorTerms));
  const names = [...new Set(rows.map((r) => r.task ?? 'default'))].sort();
  const cluster = rows.map((r) => names.indexOf(r.task ?? 'default'));
  const global = models.map((m) => rows.reduce((s, r) => s + (r.scores[m] ?? 0), 0) / Math.max(1, rows.length));
  const accuracy = names.map((_, c) => {
    const members = rows.filter((_, i) => cluster[i] === c);
    return models.map((m, j) => r4((members.reduce((s, r) => s + (r.scores[m] ?? 0), 0) + 2 * (global[j] as number)) / (members.length + 2)));
  });
  const buckets = [...df.keys()].sort((a, b) => a - b);
  return {
    models,
    hashBits: DEFAULT_HASH_BITS,
    idf: { docs: rows.length, buckets: packU32(buckets), df: packU32(buckets.map((b) => df.get(b) as number)) },
    clusters: {
      names,
      centroids: names.map((_, c) => pack(centroidOf(vectors.filter((_, i) => cluster[i] === c), 200))),
      accuracy,
      rows: names.map((_, c) => cluster.filter((x) => x === c).length),
    },
    global: global.map(r4),
    knn: {
      k: options.k,
      shrinkage: options.shrinkage,
      minClusterSimilarity: options.minClusterSimilarity,
      vectors: vectors.map(pack),
      cluster,
      labels: models.map((m) => packBits(rows.map((r) => r.scores[m] ?? 0))),
    },
  };
}
