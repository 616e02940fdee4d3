/** Seeded PRNG (mulberry32) and helpers: every random choice in this library is reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Fold index of every item, stratified by `groupOf`: each group is spread evenly over k folds. */
export function stratifiedFolds<T>(items: T[], k: number, groupOf: (item: T) => string, seed: number): number[] {
  const rand = mulberry32(seed);
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => groups.set(groupOf(it), [...(groups.get(groupOf(it)) ?? []), i]));
  const fold = new Array<number>(items.length).fill(0);
  let offset = 0;
  for (const key of [...groups.keys()].sort()) {
    shuffled(groups.get(key) as number[], rand).forEach((idx, n) => {
      fold[idx] = (n + offset) % k;
    });
    offset += (groups.get(key) as number[]).length;
  }
  return fold;
}
