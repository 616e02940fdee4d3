import { isRecord } from '../http-io';
import { tooManyBreakpoints, TTL_ORDER_MESSAGE, ttlOrderViolation, type CacheSegment, type CacheTtl } from '../prompt-cache/prompt-cache-types';

export type AnthropicCachePoints = { ok: true; segments: CacheSegment[] } | { ok: false; message: string };

/** A breakpoint as sent, with the wire path its errors name. */
interface Breakpoint {
  ttl: CacheTtl;
  path: string;
}

class CacheControlError extends Error {}

/** `cache_control: {type: 'ephemeral', ttl?: '5m' | '1h'}`, checked as Anthropic checks it; undefined when absent. */
function readCacheControl(value: unknown, path: string): Breakpoint | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new CacheControlError(`${path}: Input should be a valid dictionary`);
  if (value['type'] !== 'ephemeral') {
    throw new CacheControlError(`${path}: Input tag '${String(value['type'])}' found using 'type' does not match any of the expected tags: 'ephemeral'`);
  }
  const ttl = value['ttl'] ?? '5m';
  if (ttl !== '5m' && ttl !== '1h') throw new CacheControlError(`${path}.ephemeral.ttl: Input should be '5m' or '1h'`);
  return { ttl, path };
}

/** What identifies a block in a prefix hash: where it sits and what it says, its cache marker left out. */
function identity(place: string, block: unknown): string {
  if (!isRecord(block)) return `${place}:${JSON.stringify(block)}`;
  const { cache_control: _marker, ...rest } = block;
  return `${place}:${JSON.stringify(rest)}`;
}

/** A tool result's counted text: its string content, or its text blocks joined by newlines (as the request reader). */
function toolResultChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  const texts = content.flatMap((block) => (isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? [block['text']] : []));
  return texts.join('\n').length;
}

/** Builds the segment list and the breakpoints placed on it, in Anthropic's order. */
class SegmentList {
  readonly segments: CacheSegment[] = [];
  readonly breakpoints: Breakpoint[] = [];

  add(identityText: string, chars: number, ...controls: Array<Breakpoint | undefined>): void {
    const segment: CacheSegment = { identity: identityText, chars };
    for (const control of controls) {
      if (!control) continue;
      this.breakpoints.push(control);
      // Two markers on one block (a tool_result and a block inside it) are one breakpoint; the longer TTL holds.
      if (segment.breakpoint !== '1h') segment.breakpoint = control.ttl;
    }
    this.segments.push(segment);
  }
}

function addTools(list: SegmentList, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool, i) => list.add(identity('tool', tool), 0, readCacheControl(isRecord(tool) ? tool['cache_control'] : undefined, `tools.${i}.cache_control`)));
}

/** A string system prompt is one block without a marker; text blocks are joined by newlines when counted. */
function addSystem(list: SegmentList, system: unknown): void {
  if (typeof system === 'string') return list.add(identity('system', system), system.length);
  if (!Array.isArray(system)) return;
  system.forEach((block, i) => {
    const text = isRecord(block) && typeof block['text'] === 'string' ? block['text'] : '';
    list.add(identity('system', block), text.length + (i > 0 ? 1 : 0), readCacheControl(isRecord(block) ? block['cache_control'] : undefined, `system.${i}.cache_control`));
  });
}

/** Markers inside a tool_result's content count toward the limit and end the prefix at that result. */
function nestedControls(block: Record<string, unknown>, path: string): Array<Breakpoint | undefined> {
  const content = block['content'];
  if (block['type'] !== 'tool_result' || !Array.isArray(content)) return [];
  return content.map((inner, k) => readCacheControl(isRecord(inner) ? inner['cache_control'] : undefined, `${path}.content.${k}.cache_control`));
}

function addMessage(list: SegmentList, message: Record<string, unknown>, m: number): void {
  const role = String(message['role']);
  const content = message['content'];
  if (typeof content === 'string') return list.add(identity(role, content), content.length);
  if (!Array.isArray(content)) return;
  let texts = 0;
  content.forEach((block, j) => {
    const path = `messages.${m}.content.${j}`;
    if (!isRecord(block)) return list.add(identity(role, block), 0);
    let chars = 0;
    if (block['type'] === 'text' && typeof block['text'] === 'string') chars = block['text'].length + (texts++ > 0 ? 1 : 0);
    if (block['type'] === 'tool_result') chars = toolResultChars(block['content']);
    list.add(identity(role, block), chars, readCacheControl(block['cache_control'], `${path}.cache_control`), ...nestedControls(block, path));
  });
}

/**
 * The cacheable prefix of a Messages body (already read by convertAnthropicRequest): tools, then
 * system, then each message's blocks, each a segment whose counted characters add up to the
 * request's input estimate. Choices that change how messages are processed (tool_choice,
 * thinking) sit between system and messages, so changing them misses the messages' cache only.
 * A top-level `cache_control` (automatic caching) marks the last block. Refuses more than four
 * markers, malformed ones, and a 1-hour marker after a 5-minute one, as Anthropic does.
 */
export function readAnthropicCachePoints(body: unknown): AnthropicCachePoints {
  const list = new SegmentList();
  if (!isRecord(body)) return { ok: true, segments: [] };
  try {
    addTools(list, body['tools']);
    addSystem(list, body['system']);
    list.add(`settings:${JSON.stringify([body['tool_choice'] ?? null, body['thinking'] ?? null])}`, 0);
    const messages = Array.isArray(body['messages']) ? body['messages'] : [];
    messages.forEach((message, m) => {
      if (isRecord(message)) addMessage(list, message, m);
    });
    const automatic = readCacheControl(body['cache_control'], 'cache_control');
    const last = list.segments[list.segments.length - 1];
    if (automatic && last) {
      list.breakpoints.push(automatic);
      if (last.breakpoint !== '1h') last.breakpoint = automatic.ttl;
    }
  } catch (error: unknown) {
    if (error instanceof CacheControlError) return { ok: false, message: error.message };
    throw error;
  }
  const tooMany = tooManyBreakpoints(list.breakpoints.length);
  if (tooMany) return { ok: false, message: tooMany };
  const late = list.breakpoints[ttlOrderViolation(list.breakpoints.map((point) => point.ttl))];
  return late ? { ok: false, message: `${late.path}.ttl: ${TTL_ORDER_MESSAGE}` } : { ok: true, segments: list.segments };
}
