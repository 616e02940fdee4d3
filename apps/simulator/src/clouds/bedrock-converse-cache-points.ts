import { isRecord } from '../http-io';
import { tooManyBreakpoints, TTL_ORDER_MESSAGE, ttlOrderViolation, type CacheSegment, type CacheTtl } from '../prompt-cache/prompt-cache-types';

export type ConverseCachePoints = { ok: true; segments: CacheSegment[] } | { ok: false; message: string };

class CachePointError extends Error {}

/** Bedrock's (Coral's) form for a member outside its enum. */
function notInEnum(value: unknown, at: string, values: readonly string[]): CachePointError {
  return new CachePointError(`1 validation error detected: Value '${String(value)}' at '${at}' failed to satisfy constraint: Member must satisfy enum value set: [${values.join(', ')}]`);
}

/** `cachePoint: {type: 'default', ttl?: '5m' | '1h'}`. */
function readCachePoint(value: unknown, at: string): CacheTtl {
  if (!isRecord(value) || value['type'] !== 'default') throw notInEnum(isRecord(value) ? value['type'] : undefined, `${at}.type`, ['default']);
  const ttl = value['ttl'] ?? '5m';
  if (ttl !== '5m' && ttl !== '1h') throw notInEnum(ttl, `${at}.ttl`, ['5m', '1h']);
  return ttl;
}

/**
 * Builds the segment list. A cache point is a block of its own that marks the end of the prefix
 * before it, so it sets the breakpoint of the last segment added.
 */
class SegmentList {
  readonly segments: CacheSegment[] = [];
  readonly points: CacheTtl[] = [];

  add(identity: string, chars: number): void {
    this.segments.push({ identity, chars });
  }

  point(value: unknown, at: string): void {
    const ttl = readCachePoint(value, at);
    this.points.push(ttl);
    const last = this.segments[this.segments.length - 1];
    if (last && last.breakpoint !== '1h') last.breakpoint = ttl;
  }
}

function addTools(list: SegmentList, toolConfig: unknown): void {
  const tools = isRecord(toolConfig) && Array.isArray(toolConfig['tools']) ? toolConfig['tools'] : [];
  tools.forEach((tool, i) => {
    if (isRecord(tool) && 'cachePoint' in tool) list.point(tool['cachePoint'], `toolConfig.tools.${i}.member.cachePoint`);
    else list.add(`tool:${JSON.stringify(tool)}`, 0);
  });
}

/** System text blocks are counted as the request reader joins them: non-empty ones, by newlines. */
function addSystem(list: SegmentList, system: unknown): void {
  if (!Array.isArray(system)) return;
  let texts = 0;
  system.forEach((block, i) => {
    if (isRecord(block) && 'cachePoint' in block) return list.point(block['cachePoint'], `system.${i}.member.cachePoint`);
    const text = isRecord(block) && typeof block['text'] === 'string' ? block['text'] : '';
    list.add(`system:${JSON.stringify(block)}`, text === '' ? 0 : text.length + (texts++ > 0 ? 1 : 0));
  });
}

/** A tool result's counted text: its text items and JSON items, joined without separators (as the request reader). */
function toolResultChars(result: unknown): number {
  const content = isRecord(result) && Array.isArray(result['content']) ? result['content'] : [];
  let chars = 0;
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (typeof item['text'] === 'string') chars += item['text'].length;
    else if (item['json'] !== undefined) chars += JSON.stringify(item['json']).length;
  }
  return chars;
}

function addMessage(list: SegmentList, message: Record<string, unknown>, m: number): void {
  const role = String(message['role']);
  const content = Array.isArray(message['content']) ? message['content'] : [];
  let texts = 0;
  content.forEach((block, j) => {
    if (isRecord(block) && 'cachePoint' in block) return list.point(block['cachePoint'], `messages.${m}.member.content.${j}.member.cachePoint`);
    let chars = 0;
    if (isRecord(block) && 'text' in block) chars = (typeof block['text'] === 'string' ? block['text'].length : 0) + (texts++ > 0 ? 1 : 0);
    if (isRecord(block) && 'toolResult' in block) chars = toolResultChars(block['toolResult']);
    list.add(`${role}:${JSON.stringify(block)}`, chars);
  });
}

/**
 * The cacheable prefix of a Converse body (already read by convertConverseRequest), in Claude's
 * order: tool specs, system blocks, then each message's blocks, the counted characters adding up
 * to the request's input estimate; the tool choice and thinking settings sit between system and
 * messages. `cachePoint` blocks are the breakpoints; more than four, or a malformed one, is
 * Bedrock's ValidationException, and so is a 1-hour point after a 5-minute one (Claude's rule).
 */
export function readConverseCachePoints(body: unknown): ConverseCachePoints {
  const list = new SegmentList();
  if (!isRecord(body)) return { ok: true, segments: [] };
  try {
    addTools(list, body['toolConfig']);
    addSystem(list, body['system']);
    const toolChoice = isRecord(body['toolConfig']) ? body['toolConfig']['toolChoice'] : undefined;
    const additional = isRecord(body['additionalModelRequestFields']) ? body['additionalModelRequestFields'] : {};
    list.add(`settings:${JSON.stringify([toolChoice ?? null, additional['thinking'] ?? null, additional['reasoning_config'] ?? null])}`, 0);
    const messages = Array.isArray(body['messages']) ? body['messages'] : [];
    messages.forEach((message, m) => {
      if (isRecord(message)) addMessage(list, message, m);
    });
  } catch (error: unknown) {
    if (error instanceof CachePointError) return { ok: false, message: error.message };
    throw error;
  }
  const model = (message: string): ConverseCachePoints => ({ ok: false, message: `The model returned the following errors: ${message}` });
  const tooMany = tooManyBreakpoints(list.points.length);
  if (tooMany) return model(tooMany);
  if (ttlOrderViolation(list.points) >= 0) return model(TTL_ORDER_MESSAGE);
  return { ok: true, segments: list.segments };
}
