/**
 * Canonical messages → Converse `system` and `messages`.
 *
 * - System messages are hoisted, in order, to the top-level `system`; one that came after the
 *   conversation started is flagged, as its position is lost.
 * - Turns alternate user/assistant: consecutive turns of one role are merged, and a canonical
 *   tool message joins the user turn around it, its `toolResult` blocks first.
 * - A cache hint on a part becomes a `cachePoint` block right after it (Bedrock's breakpoint).
 * - Reasoning goes back only when Bedrock signed it (a `bedrock-converse` signature), as
 *   `reasoningContent`; anything else is history Bedrock would refuse, left out.
 * - Bedrock refuses a blank text block, so blank text is left out; a tool result left with no
 *   content says so in words.
 * - Bedrock refuses `toolUse` / `toolResult` blocks in a request without a `toolConfig`; when no
 *   tools are sent (none given, or tool_choice none) the calls and results are told as text.
 */
import { GatewayError, type AssistantMessage, type CacheHint, type Converted, type Message, type ToolResultPart, type TranslationWarning, type UserContentPart } from '@rosetta/canonical';
import { addToTurn, isRecord, signatureFor, unwrapCallSignature, type AlternatingTurn, type JsonObject } from '@rosetta/protocols/common';
import { toConverseDocument, toConverseImage } from './convert-to-bedrock-converse-media';

export type ConverseBlock = JsonObject;

export interface ConverseConversation {
  system: ConverseBlock[];
  messages: { role: 'user' | 'assistant'; content: ConverseBlock[] }[];
}

const CACHE_POINT: ConverseBlock = { cachePoint: { type: 'default' } };
const EMPTY_RESULT = '(no output)';

interface Context {
  warnings: TranslationWarning[];
  /** A toolConfig goes with the request, so tool blocks may be sent as they are. */
  toolBlocks: boolean;
  /** Tool blocks were told as text: one warning says so. */
  toldAsText: boolean;
}

export function convertToBedrockConverseMessages(messages: Message[], { toolBlocks }: { toolBlocks: boolean }): Converted<ConverseConversation> {
  const context: Context = { warnings: [], toolBlocks, toldAsText: false };
  const system: ConverseBlock[] = [];
  const turns: AlternatingTurn<ConverseBlock>[] = [];
  messages.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        if (turns.length > 0) context.warnings.push({ feature: 'system', message: `The system message at messages[${i}] was moved to the top-level system prompt.` });
        for (const part of message.content) system.push(...textBlock(part.text, part.cache));
        return;
      case 'user':
        return addToTurn(turns, 'user', 'blocks', message.content.flatMap((part) => userBlocks(part, context)));
      case 'tool':
        return addToTurn(turns, 'user', 'results', message.content.flatMap((result) => toolResultBlocks(result, context)));
      case 'assistant':
        return addToTurn(turns, 'assistant', 'blocks', assistantBlocks(message, `messages[${i}]`, context));
    }
  });
  if (context.toldAsText) {
    context.warnings.push({ feature: 'tools', message: 'Bedrock Converse refuses tool calls and results in a request that sends no tools; they were given to the model as text.' });
  }
  return { value: { system, messages: turns.map((turn) => ({ role: turn.role, content: [...turn.results, ...turn.blocks] })) }, warnings: context.warnings };
}

function cachePoint(hint: CacheHint | undefined): ConverseBlock[] {
  return hint ? [CACHE_POINT] : [];
}

function textBlock(text: string, cache: CacheHint | undefined): ConverseBlock[] {
  return text.trim() === '' ? [] : [{ text }, ...cachePoint(cache)];
}

function userBlocks(part: UserContentPart, context: Context): ConverseBlock[] {
  switch (part.type) {
    case 'text':
      return textBlock(part.text, part.cache);
    case 'image':
      return withCache(toConverseImage(part, context.warnings), part.cache);
    case 'document':
      return withCache(toConverseDocument(part, context.warnings), part.cache);
    case 'audio':
      context.warnings.push({ feature: 'audio', message: 'Bedrock Converse takes no audio input; an audio part was dropped.' });
      return [];
  }
}

function withCache(block: ConverseBlock | undefined, cache: CacheHint | undefined): ConverseBlock[] {
  return block ? [block, ...cachePoint(cache)] : [];
}

/**
 * A `toolResult` can hold no cachePoint, so a hint on the result or on any part inside it becomes
 * one breakpoint right after the result: the cached prefix ends there either way.
 */
function toolResultBlocks(result: ToolResultPart, context: Context): ConverseBlock[] {
  const content = result.content.flatMap((part): ConverseBlock[] => {
    if (part.type === 'text') return part.text.trim() === '' ? [] : [{ text: part.text }];
    const block = part.type === 'image' ? toConverseImage(part, context.warnings) : toConverseDocument(part, context.warnings);
    return block ? [block] : [];
  });
  const cached = result.cache ?? result.content.find((part) => part.cache)?.cache;
  if (!context.toolBlocks) return [...resultAsText(result, content, context), ...cachePoint(cached)];
  const block: JsonObject = { toolUseId: result.toolCallId, content: content.length > 0 ? content : [{ text: EMPTY_RESULT }] };
  if (result.isError) block['status'] = 'error';
  return [{ toolResult: block }, ...cachePoint(cached)];
}

function resultAsText(result: ToolResultPart, content: ConverseBlock[], context: Context): ConverseBlock[] {
  context.toldAsText = true;
  const text = content.flatMap((block) => (typeof block['text'] === 'string' ? [block['text']] : [])).join('\n');
  const what = `${result.isError ? 'Error from' : 'Result of'} tool call ${result.toolCallId}${result.toolName ? ` (${result.toolName})` : ''}`;
  return [{ text: `[${what}: ${text === '' ? EMPTY_RESULT : text}]` }, ...content.filter((block) => typeof block['text'] !== 'string')];
}

function assistantBlocks(message: AssistantMessage, path: string, context: Context): ConverseBlock[] {
  return message.content.flatMap((part, j): ConverseBlock[] => {
    switch (part.type) {
      case 'text':
        return textBlock(part.text, part.cache);
      case 'refusal':
        return textBlock(part.text, undefined);
      case 'thinking': {
        const signature = signatureFor(part.signature, 'bedrock-converse');
        // A call signature's carrier is no reasoning Bedrock signed, whatever it claims.
        if (signature === undefined || unwrapCallSignature(signature)) return [];
        return [{ reasoningContent: { reasoningText: { text: part.text, signature } } }];
      }
      case 'redacted_thinking':
        return part.protocol === 'bedrock-converse' ? [{ reasoningContent: { redactedContent: part.data } }] : [];
      case 'tool_call': {
        const input = toolInput(part.arguments, part.id, `${path}.content[${j}]`);
        if (context.toolBlocks) return [{ toolUse: { toolUseId: part.id, name: part.name, input } }];
        context.toldAsText = true;
        return [{ text: `[Called tool ${part.name} (call ${part.id}) with ${JSON.stringify(input)}]` }];
      }
    }
  });
}

/** Empty text is an empty object; anything else that is not a JSON object is the caller's error. */
function toolInput(text: string, id: string, path: string): JsonObject {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw GatewayError.invalidRequest(`The arguments of tool call '${id}' at '${path}' are not a JSON object; Bedrock needs one.`, path);
}
