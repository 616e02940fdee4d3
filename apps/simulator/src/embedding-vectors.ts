import { createHash } from 'node:crypto';

/** Which API's conventions a vector follows (they shorten differently). */
export type EmbeddingFlavour = 'openai' | 'gemini';

/** Vector sizes of the embedding models the simulator knows; any other model gives DEFAULT_DIMENSIONS. */
const NATIVE_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
  'embedding-001': 768,
};
export const DEFAULT_DIMENSIONS = 1536;
/** Models that cannot shorten their vectors (`dimensions` is refused, as OpenAI refuses it for ada-002). */
const FIXED_SIZE = new Set(['text-embedding-ada-002', 'embedding-001']);

const bare = (model: string): string => (model.startsWith('models/') ? model.slice('models/'.length) : model);

export function nativeDimensions(model: string): number {
  return NATIVE_DIMENSIONS[bare(model)] ?? DEFAULT_DIMENSIONS;
}

export function acceptsDimensions(model: string): boolean {
  return !FIXED_SIZE.has(bare(model));
}

export interface EmbeddingSpec {
  /** The upstream model (a `models/` prefix is ignored). */
  model: string;
  /** Text, or token ids (OpenAI). */
  input: string | readonly number[];
  dimensions?: number;
  /** Gemini: a different task or title gives a different vector, as on the real models. */
  taskType?: string;
  title?: string;
  flavour: EmbeddingFlavour;
}

/**
 * The simulator's vector for an input: deterministic in the model, the input and (Gemini) the task
 * type and title; unit length at the model's own size; every value a float32. Shortened the way
 * each API does it: OpenAI returns the first `dimensions` values normalised again (its vectors stay
 * unit length), Gemini only truncates (its documentation leaves normalising sizes below 3072 to
 * the caller). Tests compute expected vectors with this same function.
 */
export function simulatedEmbedding(spec: EmbeddingSpec): number[] {
  const native = nativeDimensions(spec.model);
  const size = Math.min(spec.dimensions ?? native, native);
  const full = typeof spec.input === 'string' ? textVector(spec, spec.input, native) : normalise(randomValues(seedOf(spec), native));
  const head = full.slice(0, size);
  const shaped = spec.flavour === 'openai' && size < native ? normalise(head) : head;
  return shaped.map((value) => Math.fround(value));
}

/** How much of a text's vector is its own noise: enough that no vector is ever all zeros when shortened. */
const NOISE = 0.1;
/** Coordinates each character trigram touches. */
const TRIGRAM_SPREAD = 8;

/**
 * A text's vector means something, as a real model's does: texts that share most of their
 * character trigrams (a reworded question, a typo, other casing) point the same way, unrelated
 * texts nearly at right angles. Each trigram adds ±1 at a few hashed coordinates (feature
 * hashing); a little noise seeded by the whole input keeps every vector distinct. The semantic
 * response cache is tested on this.
 */
function textVector(spec: EmbeddingSpec, text: string, size: number): number[] {
  const features = new Array<number>(size).fill(0);
  const folded = ` ${text.toLowerCase().replace(/\s+/g, ' ').trim()} `;
  for (let i = 0; i + 3 <= folded.length; i++) {
    const digest = createHash('sha256').update(`${bare(spec.model)}\n${spec.taskType ?? ''}\n${spec.title ?? ''}\n${folded.slice(i, i + 3)}`).digest();
    for (let k = 0; k < TRIGRAM_SPREAD; k++) {
      const word = digest.readUInt32LE(k * 4);
      features[word % size]! += word & 0x80000000 ? -1 : 1;
    }
  }
  const noise = normalise(randomValues(seedOf(spec), size));
  const signal = normalise(features);
  return normalise(signal.map((v, i) => v + NOISE * noise[i]!));
}

function seedOf(spec: EmbeddingSpec): Buffer {
  const input = typeof spec.input === 'string' ? `text:${spec.input}` : `tokens:${spec.input.join(',')}`;
  return createHash('sha256').update(`${bare(spec.model)}\n${spec.taskType ?? ''}\n${spec.title ?? ''}\n${input}`).digest();
}

/** sfc32 seeded from the hash: fast, and the same values on every platform. */
function randomValues(seed: Buffer, count: number): number[] {
  let a = seed.readUInt32LE(0);
  let b = seed.readUInt32LE(4);
  let c = seed.readUInt32LE(8);
  let d = seed.readUInt32LE(12);
  const values = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    values[i] = (t >>> 0) / 4294967296 - 0.5;
  }
  return values;
}

function normalise(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) || 1;
  return values.map((v) => v / norm);
}

/** Little-endian float32 bytes in base64, OpenAI's `encoding_format: "base64"`. */
export function float32Base64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/** What the simulator charges an input: a quarter token per character (at least one), or one per token id. */
export function embeddingInputTokens(input: string | readonly number[]): number {
  return typeof input === 'string' ? Math.max(1, Math.ceil(input.length / 4)) : input.length;
}
