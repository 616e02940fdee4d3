import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { CanonicalRequest, ContentPart, Message } from '@rosetta/canonical';
import { ConfigError, REDIS_CLIENT, type RedisClient } from '@rosetta/platform';
import { createHash } from 'node:crypto';

/** How long a session keeps its model: the upstreams' prompt caches stay warm about five minutes. */
export const DEFAULT_AFFINITY_TTL_MS = 300_000;
/** The part of the conversation's start that identifies it: enough to tell sessions apart, cheap to hash. */
const PREFIX_CHARS = 4_096;
const MAX_LOCAL_SESSIONS = 100_000;
const REDIS_PREFIX = 'rosetta:affinity:';

/** What a conversation was last served with, and where it stands now. */
export interface Stickiness {
  session: string;
  /** The model the session was served by last; absent for a new session. */
  model?: string;
  /** The request answers tool calls: switching models now would lose the upstream's tool-loop state. */
  toolLoop: boolean;
}

/** `AFFINITY_TTL_MS` (default 5 minutes, 0 turns affinity off). */
export function affinityTtlFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env['AFFINITY_TTL_MS']?.trim();
  if (!raw) return DEFAULT_AFFINITY_TTL_MS;
  if (!/^\d+$/.test(raw)) throw new ConfigError('AFFINITY_TTL_MS', `must be a whole number of milliseconds, got '${raw}'`);
  return Number(raw);
}

/**
 * Session affinity for rosetta/auto: consecutive requests of one conversation stay on the model
 * that served it while the upstream's prompt cache is warm, so a conversation does not hop between
 * models turn by turn (losing the cache, and mid tool loop the thinking state). A session is the
 * caller's key plus its own session id — `prompt_cache_key`, Anthropic `metadata.user_id` (Claude
 * Code puts its session there), OpenAI `user` — or else a hash of how the conversation starts
 * (system text and first user message). Kept in Redis so it holds across replicas; in process
 * without Redis. The router may still escalate to a stronger model, except mid tool loop.
 */
@Injectable()
export class SessionAffinityService {
  private readonly local = new Map<string, { model: string; expires: number }>();
  private readonly ttlMs: number;

  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null = null) {
    this.ttlMs = affinityTtlFromEnv();
  }

  /** The request's session and the model it stuck to; undefined when affinity is off or there is no key. */
  async lookup(request: CanonicalRequest, key: ApiKeyRecord | undefined): Promise<Stickiness | undefined> {
    if (this.ttlMs === 0 || !key) return undefined;
    const session = sessionId(request, key.id);
    const toolLoop = request.messages.at(-1)?.role === 'tool' || lastHasToolResult(request.messages);
    const model = await this.read(session);
    return { session, model, toolLoop };
  }

  /** Remembers (and keeps warm) the model that served the session. Never throws, never waits. */
  remember(sticky: Stickiness | undefined, model: string): void {
    if (!sticky || this.ttlMs === 0) return;
    if (this.redis) {
      this.redis.set(REDIS_PREFIX + sticky.session, model, 'PX', this.ttlMs).catch(() => undefined);
      return;
    }
    if (this.local.size >= MAX_LOCAL_SESSIONS) this.local.delete(this.local.keys().next().value!);
    this.local.delete(sticky.session);
    this.local.set(sticky.session, { model, expires: Date.now() + this.ttlMs });
  }

  private async read(session: string): Promise<string | undefined> {
    if (this.redis) {
      try {
        return (await this.redis.get(REDIS_PREFIX + session)) ?? undefined;
      } catch {
        return undefined; // no affinity is a routing choice, never a failure
      }
    }
    const entry = this.local.get(session);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.local.delete(session);
      return undefined;
    }
    return entry.model;
  }
}

/** The key plus the caller's own session id, or else the conversation's opening. */
export function sessionId(request: CanonicalRequest, keyId: string): string {
  const explicit = request.promptCacheKey ?? request.user;
  const hash = createHash('sha256').update(keyId).update('\0');
  if (explicit) hash.update('id\0').update(explicit);
  else hash.update('prefix\0').update(conversationOpening(request.messages));
  return hash.digest('base64url');
}

function conversationOpening(messages: Message[]): string {
  let text = '';
  for (const message of messages) {
    if (message.role === 'assistant' || message.role === 'tool') continue;
    for (const part of message.content as ContentPart[]) if (part.type === 'text') text += `${message.role}:${part.text}\n`;
    if (message.role === 'user' || text.length >= PREFIX_CHARS) break;
  }
  return text.slice(0, PREFIX_CHARS);
}

function lastHasToolResult(messages: Message[]): boolean {
  const last = messages.at(-1);
  return !!last && (last.content as ContentPart[]).some((p) => p.type === 'tool_result');
}
