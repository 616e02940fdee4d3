/**
 * Predicted P(correct | prompt) for every fitted model.
 *
 * Choice (by 5-fold CV on the shared split, see README "Quality model"): kNN over TF-IDF hashed
 * uni/bi-grams (cosine, k = 20, neighbours weighted by similarity) shrunk toward the model's
 * accuracy in the prompt's cluster (nearest task centroid) with a pseudo-count β; the cluster
 * accuracy itself is Beta-smoothed toward the model's global accuracy. Within one task the text
 * tells little about which model will be right (kNN AUC ≈ 0.5–0.6), so β is large and most of the
 * signal is the cluster: the model stays simple and regularised.
 *
 * This file is the live half (decoding the parameters, predicting); fitting them is offline work
 * and lives in @rosetta/mixture-lab (quality-fit.ts), so the gateway never loads it.
 */
import { unpackBits, unpackU32, unpackUnit8 } from './codec';
import { type IdfTable, type SparseVector, idfOf, ngramHashes, sparseDot } from './text-features';

/** A sparse vector as the artefact stores it: base64 of its bucket indices and 8-bit weights. */
export interface PackedVector {
  idx: string;
  val: string;
}

export interface QualityParams {
  models: string[];
  hashBits: number;
  idf: { docs: number; buckets: string; df: string };
  clusters: { names: string[]; centroids: PackedVector[]; accuracy: number[][]; rows: number[] };
  global: number[];
  knn: { k: number; shrinkage: number; minClusterSimilarity: number; vectors: PackedVector[]; cluster: number[]; labels: string[] };
}

/** Query terms used for the neighbour search: the heaviest ones (bounds the work per prompt). */
const QUERY_TERMS = 64;

/** Positions of the `k` largest weights of a vector (all of them when it is small; ties at the cut → lower positions). */
function topTerms(v: SparseVector, k: number): number[] {
  const n = v.val.length;
  const all: number[] = [];
  if (n <= k) {
    for (let i = 0; i < n; i++) all.push(i);
    return all;
  }
  const cut = (Float64Array.from(v.val).sort()[n - k] as number);
  for (let i = 0; i < n && all.length < k; i++) if ((v.val[i] as number) > cut) all.push(i);
  for (let i = 0; i < n && all.length < k; i++) if (v.val[i] === cut) all.push(i);
  return all;
}

const unpack = (p: PackedVector): SparseVector => ({ idx: unpackU32(p.idx), val: unpackUnit8(p.val) });

export interface QualityPrediction {
  /** Index into `clusters.names`, or -1 when the prompt is like no cluster. */
  cluster: number;
  clusterName: string | null;
  clusterSimilarity: number;
  /** P(correct) per model, in `models` order. */
  quality: number[];
  /** Sum of the neighbours' similarities (the kNN evidence weight). */
  evidence: number;
}

/** The runtime form of fitted parameters: inverted index and decoded tables, built once. */
export class QualityModel {
  readonly models: string[];
  private readonly idf: IdfTable;
  private readonly centroids: SparseVector[];
  private readonly postings = new Map<number, { rows: number[]; w: number[] }>();
  private readonly labels: Uint8Array[];
  private readonly scratch: Float64Array;
  private readonly idfTable: Float32Array;
  private readonly countScratch: Uint16Array;
  private readonly touched: Int32Array;

  constructor(readonly params: QualityParams) {
    this.models = params.models;
    const buckets = unpackU32(params.idf.buckets);
    const df = unpackU32(params.idf.df);
    this.idf = { docs: params.idf.docs, df: new Map(buckets.map((b, i) => [b, df[i] as number])) };
    this.idfTable = new Float32Array(1 << params.hashBits).fill(idfOf(this.idf, -1));
    buckets.forEach((b) => (this.idfTable[b] = idfOf(this.idf, b)));
    this.countScratch = new Uint16Array(1 << params.hashBits);
    this.centroids = params.clusters.centroids.map(unpack);
    params.knn.vectors.forEach((p, row) => {
      const v = unpack(p);
      v.idx.forEach((k, i) => {
        let post = this.postings.get(k);
        if (!post) this.postings.set(k, (post = { rows: [], w: [] }));
        post.rows.push(row);
        post.w.push(v.val[i] as number);
      });
    });
    this.labels = params.knn.labels.map((s) => Uint8Array.from(unpackBits(s)));
    this.scratch = new Float64Array(params.knn.vectors.length);
    this.touched = new Int32Array(params.knn.vectors.length);
  }

  /** TF-IDF vector of a prompt: typed scratch arrays instead of maps (this is the hot path). */
  vectorOf(text: string): SparseVector {
    const mask = (1 << this.params.hashBits) - 1;
    const cnt = this.countScratch;
    const hashes = ngramHashes(text);
    const keys = new Int32Array(hashes.length);
    let n = 0;
    for (let i = 0; i < hashes.length; i++) {
      const k = (hashes[i] as number) & mask;
      const c = cnt[k] as number;
      if (c === 0) keys[n++] = k;
      cnt[k] = c + 1;
    }
    const sorted = keys.subarray(0, n).sort();
    const idx = new Array<number>(n);
    const val = new Array<number>(n);
    let norm = 0;
    for (let i = 0; i < n; i++) {
      const k = sorted[i] as number;
      const w = (1 + Math.log(cnt[k] as number)) * (this.idfTable[k] as number);
      cnt[k] = 0;
      idx[i] = k;
      val[i] = w;
      norm += w * w;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < n; i++) val[i] = (val[i] as number) * inv;
    return { idx, val };
  }

  /** Nearest cluster centroid by cosine. */
  clusterOf(v: SparseVector): { cluster: number; similarity: number } {
    let best = -1;
    let sim = 0;
    this.centroids.forEach((c, i) => {
      const s = sparseDot(v, c);
      if (s > sim) [best, sim] = [i, s];
    });
    if (sim < this.params.knn.minClusterSimilarity) return { cluster: -1, similarity: sim };
    return { cluster: best, similarity: sim };
  }

  /** Top-k training rows by cosine (ties → lower row index), optionally leaving one row out. */
  neighbours(v: SparseVector, k: number, exclude = -1): Array<{ row: number; sim: number }> {
    const acc = this.scratch;
    const touched = this.touched;
    let nTouched = 0;
    for (const i of topTerms(v, QUERY_TERMS)) {
      const post = this.postings.get(v.idx[i] as number);
      if (!post) continue;
      const qw = v.val[i] as number;
      for (let j = 0; j < post.rows.length; j++) {
        const r = post.rows[j] as number;
        if (acc[r] === 0) touched[nTouched++] = r;
        acc[r] = (acc[r] as number) + qw * (post.w[j] as number);
      }
    }
    const rows: number[] = [];
    const sims: number[] = [];
    for (let t = 0; t < nTouched; t++) {
      const r = touched[t] as number;
      const sim = acc[r] as number;
      acc[r] = 0;
      if (r === exclude || sim <= 0) continue;
      const full = rows.length === k;
      const last = rows.length - 1;
      if (full && (sim < (sims[last] as number) || (sim === sims[last] && r > (rows[last] as number)))) continue;
      if (full) {
        rows.pop();
        sims.pop();
      }
      let pos = rows.length;
      while (pos > 0 && ((sims[pos - 1] as number) < sim || ((sims[pos - 1] as number) === sim && (rows[pos - 1] as number) > r))) pos--;
      rows.splice(pos, 0, r);
      sims.splice(pos, 0, sim);
    }
    return rows.map((row, i) => ({ row, sim: sims[i] as number }));
  }

  /** Predictions for a prompt; `exclude` leaves a training row out (in-sample calibration). */
  predict(text: string, exclude = -1): QualityPrediction {
    const v = this.vectorOf(text);
    const { cluster, similarity } = this.clusterOf(v);
    const prior = cluster >= 0 ? (this.params.clusters.accuracy[cluster] as number[]) : this.params.global;
    const near = this.neighbours(v, this.params.knn.k, exclude);
    const beta = this.params.knn.shrinkage;
    const evidence = near.reduce((s, n) => s + Math.max(0, n.sim), 0);
    const quality = this.models.map((_, j) => {
      const labels = this.labels[j] as Uint8Array;
      let num = beta * (prior[j] as number);
      for (const n of near) num += Math.max(0, n.sim) * (labels[n.row] as number);
      return num / (beta + evidence);
    });
    return { cluster, clusterName: cluster >= 0 ? (this.params.clusters.names[cluster] as string) : null, clusterSimilarity: similarity, quality, evidence };
  }
}
