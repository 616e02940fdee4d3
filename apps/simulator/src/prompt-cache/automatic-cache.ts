import { createHash, type Hash } from 'node:crypto';
import type { NeutralRequest } from '../reply-plan';
import type { PromptCacheStore } from './prompt-cache-store';
import { tokensOfChars, type CacheRetention } from './prompt-cache-types';

/** OpenAI caches prompts of at least this many tokens … */
export const AUTOMATIC_MIN_TOKENS = 1024;
/** … in steps of this many tokens of the longest prefix seen before. */
export const AUTOMATIC_INCREMENT_TOKENS = 128;
/** Characters per increment under the simulator's estimate of four characters a token. */
const INCREMENT_CHARS = AUTOMATIC_INCREMENT_TOKENS * 4;

/**
 * In-memory retention keeps a prefix for minutes of inactivity (OpenAI says 5 to 10; the
 * simulator takes the shorter, so a test never depends on luck); extended retention keeps it 24 h.
 */
export const RETENTION_MS: Record<CacheRetention, number> = { in_memory: 5 * 60_000, '24h': 24 * 60 * 60_000 };

/**
 * Feeds a prompt into a hash and snapshots the digest every INCREMENT_CHARS counted characters.
 * Structure (roles, tool definitions, call ids) goes into the hash without counting, so two
 * prompts share a snapshot only when everything up to that point is the same.
 */
class IncrementHasher {
  readonly digests: string[] = [];
  private readonly hash: Hash = createHash('sha256');
  private counted = 0;

  mark(structure: string): void {
    this.hash.update(`\u0000${structure}\u0000`);
  }

  text(text: string): void {
    let offset = 0;
    while (offset < text.length) {
      const room = INCREMENT_CHARS - (this.counted % INCREMENT_CHARS);
      const piece = text.slice(offset, offset + room);
      this.hash.update(piece);
      this.counted += piece.length;
      offset += piece.length;
      if (this.counted % INCREMENT_CHARS === 0) this.digests.push(this.hash.copy().digest('hex'));
    }
  }

  get chars(): number {
    return this.counted;
  }
}

/** The counted characters are those of countInputTokens: message texts and tool results. */
function hashIncrements(request: NeutralRequest): IncrementHasher {
  const hasher = new IncrementHasher();
  hasher.mark(JSON.stringify(request.tools));
  for (const message of request.messages) {
    hasher.mark(JSON.stringify([message.role, message.toolCallIds ?? []]));
    hasher.text(message.text);
    for (const result of message.toolResults ?? []) {
      hasher.mark(JSON.stringify(['result', result.toolCallId]));
      hasher.text(result.text);
    }
  }
  return hasher;
}

export interface AutomaticCacheInput {
  store: PromptCacheStore;
  /** Credential, model and `prompt_cache_key`: prompts meet only within one partition. */
  partition: string;
  request: NeutralRequest;
  retention: CacheRetention;
}

/**
 * OpenAI's automatic prompt caching: a prompt of 1024 tokens or more reads the longest prefix,
 * in whole 128-token increments of at least 1024, that an earlier prompt of the partition
 * shared, and leaves its own increments for later prompts. Returns the cached tokens.
 */
export function applyAutomaticCache(input: AutomaticCacheInput): number {
  const hasher = hashIncrements(input.request);
  if (tokensOfChars(hasher.chars) < AUTOMATIC_MIN_TOKENS) return 0;
  const first = AUTOMATIC_MIN_TOKENS / AUTOMATIC_INCREMENT_TOKENS;
  let cached = 0;
  for (let k = hasher.digests.length; k >= first; k -= 1) {
    if (input.store.read(input.partition, hasher.digests[k - 1]!) !== undefined) {
      cached = k * AUTOMATIC_INCREMENT_TOKENS;
      break;
    }
  }
  const ttl = RETENTION_MS[input.retention];
  hasher.digests.forEach((digest, index) => {
    const tokens = (index + 1) * AUTOMATIC_INCREMENT_TOKENS;
    if (tokens >= AUTOMATIC_MIN_TOKENS) input.store.write(input.partition, digest, tokens, ttl);
  });
  return cached;
}
