/**
 * `prompt_cache: auto` for Claude (ARCHITECTURE §9): when the client placed no `cache_control`
 * of its own, the gateway places two breakpoints on the body it sends — after the tools and
 * system prompt (the part an agent repeats on every turn), and after the conversation so far (so
 * the next turn reads it back and only writes what is new). Anthropic caches only prefixes above
 * a model's minimum length and charges nothing for a breakpoint it cannot use, so a short prompt
 * loses nothing. Works on the wire body, so a forwarded Anthropic body is treated the same.
 */
type Block = Record<string, unknown>;

const EPHEMERAL = Object.freeze({ type: 'ephemeral' });

/** Blocks Anthropic refuses a breakpoint on. */
const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

export function placeAutoBreakpoints(body: Record<string, unknown>): void {
  if (hasBreakpoint(body)) return;
  const system = body['system'];
  if (typeof system === 'string' && system !== '') body['system'] = [{ type: 'text', text: system, cache_control: EPHEMERAL }];
  else if (Array.isArray(system) && system.length > 0) body['system'] = marked(system);
  else if (Array.isArray(body['tools']) && body['tools'].length > 0) body['tools'] = marked(body['tools']);
  const messages = body['messages'];
  const last = Array.isArray(messages) ? (messages.at(-1) as Block | undefined) : undefined;
  if (!last || !isBlock(last)) return;
  const content = last['content'];
  let withBreakpoint: unknown;
  if (typeof content === 'string') withBreakpoint = content === '' ? content : [{ type: 'text', text: content, cache_control: EPHEMERAL }];
  else if (Array.isArray(content)) withBreakpoint = marked(content);
  body['messages'] = [...(messages as unknown[]).slice(0, -1), { ...last, content: withBreakpoint ?? content }];
}

/**
 * The list with a breakpoint on its last block that may carry one: a new list and a new block,
 * so a forwarded client body (and every later attempt that reads it) stays as the client sent it.
 */
function marked(blocks: unknown[]): unknown[] {
  const copy = [...blocks];
  for (let i = copy.length - 1; i >= 0; i--) {
    const block = copy[i];
    if (!isBlock(block) || UNMARKABLE.has(String(block['type']))) continue;
    copy[i] = { ...block, cache_control: EPHEMERAL };
    break;
  }
  return copy;
}

function hasBreakpoint(body: Record<string, unknown>): boolean {
  if (body['cache_control'] !== undefined) return true;
  const lists = [body['system'], body['tools'], ...(Array.isArray(body['messages']) ? body['messages'].map((m) => (isBlock(m) ? m['content'] : undefined)) : [])];
  return lists.some((list) => Array.isArray(list) && list.some((block) => isBlock(block) && (block['cache_control'] !== undefined || hasNestedBreakpoint(block))));
}

/** A tool result's own content blocks may carry breakpoints too. */
function hasNestedBreakpoint(block: Block): boolean {
  return Array.isArray(block['content']) && block['content'].some((inner) => isBlock(inner) && inner['cache_control'] !== undefined);
}

function isBlock(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
