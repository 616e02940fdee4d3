import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type GenerateContentResponse } from '@google/genai';
import OpenAI from 'openai';
import { ResponsesDriver } from './responses-driver';

/** One tool the matrix uses everywhere. */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
} as const;

export interface Reply {
  text: string;
  thinking: string;
  model: string;
  finish: string;
  usage: { input: number; output: number };
}

export interface ToolCallSeen {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface Options {
  stream: boolean;
  thinking?: boolean;
}

/**
 * A conversation driven through one official SDK. The history is kept in the SDK's own types, the
 * way an application (or an agent like Claude Code) would keep it, and sent back verbatim.
 */
export interface DialectClient {
  readonly dialect: 'openai' | 'anthropic' | 'gemini' | 'openai-responses';
  ask(model: string, text: string, options: Options): Promise<Reply>;
  /** First turn of a tool loop: returns the calls the model made. */
  startTool(model: string, text: string, options: Options): Promise<{ calls: ToolCallSeen[]; reply: Reply }>;
  /** Answers every call of the last turn with `output` and returns the final reply. */
  finishTool(model: string, output: Record<string, unknown>, options: Options): Promise<Reply>;
}

export class OpenAIDriver implements DialectClient {
  readonly dialect = 'openai' as const;
  private readonly client: OpenAI;
  private history: OpenAI.ChatCompletionMessageParam[] = [];
  private calls: OpenAI.ChatCompletionMessageFunctionToolCall[] = [];

  constructor(baseUrl: string, key: string) {
    this.client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  }

  private async send(model: string, options: Options, withTools: boolean): Promise<{ message: OpenAI.ChatCompletionMessage; reply: Reply }> {
    const params = {
      model,
      messages: this.history,
      ...(withTools ? { tools: [{ type: 'function' as const, function: { ...WEATHER_TOOL, parameters: { ...WEATHER_TOOL.parameters } } }] } : {}),
      ...(options.thinking ? { reasoning_effort: 'low' as const } : {}),
    };
    const completion = options.stream
      ? await this.client.chat.completions.stream({ ...params, stream_options: { include_usage: true } }).finalChatCompletion()
      : await this.client.chat.completions.create(params);
    const choice = completion.choices[0]!;
    const message = choice.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    return {
      message,
      reply: {
        text: message.content ?? '',
        thinking: message.reasoning_content ?? '',
        model: completion.model,
        finish: choice.finish_reason,
        usage: { input: completion.usage?.prompt_tokens ?? -1, output: completion.usage?.completion_tokens ?? -1 },
      },
    };
  }

  async ask(model: string, text: string, options: Options): Promise<Reply> {
    this.history = [{ role: 'user', content: text }];
    return (await this.send(model, options, false)).reply;
  }

  async startTool(model: string, text: string, options: Options) {
    this.history = [{ role: 'user', content: text }];
    const { message, reply } = await this.send(model, options, true);
    this.history.push(message as OpenAI.ChatCompletionAssistantMessageParam);
    this.calls = (message.tool_calls ?? []).filter((c): c is OpenAI.ChatCompletionMessageFunctionToolCall => c.type === 'function');
    return { calls: this.calls.map((c) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) })), reply };
  }

  async finishTool(model: string, output: Record<string, unknown>, options: Options): Promise<Reply> {
    for (const call of this.calls) this.history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
    return (await this.send(model, options, true)).reply;
  }
}

export class AnthropicDriver implements DialectClient {
  readonly dialect = 'anthropic' as const;
  private readonly client: Anthropic;
  private history: Anthropic.MessageParam[] = [];
  private calls: Anthropic.ToolUseBlock[] = [];

  constructor(baseUrl: string, key: string) {
    this.client = new Anthropic({ apiKey: key, baseURL: baseUrl, maxRetries: 0 });
  }

  private async send(model: string, options: Options, withTools: boolean): Promise<Anthropic.Message> {
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model,
      max_tokens: 2048,
      messages: this.history,
      ...(withTools ? { tools: [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, input_schema: { ...WEATHER_TOOL.parameters, required: ['city'] } }] } : {}),
      ...(options.thinking ? { thinking: { type: 'enabled' as const, budget_tokens: 1024 } } : {}),
    };
    return options.stream ? this.client.messages.stream(params).finalMessage() : this.client.messages.create(params);
  }

  private reply(message: Anthropic.Message): Reply {
    const text = message.content.filter((b): b is Anthropic.TextBlock => b.type === 'text').map((b) => b.text).join('');
    const thinking = message.content.filter((b): b is Anthropic.ThinkingBlock => b.type === 'thinking').map((b) => b.thinking).join('');
    return { text, thinking, model: message.model, finish: message.stop_reason ?? '', usage: { input: message.usage.input_tokens, output: message.usage.output_tokens } };
  }

  async ask(model: string, text: string, options: Options): Promise<Reply> {
    this.history = [{ role: 'user', content: text }];
    return this.reply(await this.send(model, options, false));
  }

  async startTool(model: string, text: string, options: Options) {
    this.history = [{ role: 'user', content: text }];
    const message = await this.send(model, options, true);
    this.history.push({ role: 'assistant', content: message.content });
    this.calls = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    return { calls: this.calls.map((c) => ({ id: c.id, name: c.name, args: c.input as Record<string, unknown> })), reply: this.reply(message) };
  }

  async finishTool(model: string, output: Record<string, unknown>, options: Options): Promise<Reply> {
    this.history.push({ role: 'user', content: this.calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: JSON.stringify(output) })) });
    return this.reply(await this.send(model, options, true));
  }
}

export class GeminiDriver implements DialectClient {
  readonly dialect = 'gemini' as const;
  private readonly client: GoogleGenAI;
  private history: Content[] = [];
  private calls: { id?: string; name: string }[] = [];

  constructor(baseUrl: string, key: string) {
    // An explicit fetch: under Jest the SDK cannot find Node's global undici dispatcher otherwise.
    this.client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl, fetch: (input, init) => fetch(input, init) } });
  }

  private config(options: Options, withTools: boolean) {
    return {
      ...(withTools ? { tools: [{ functionDeclarations: [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parametersJsonSchema: WEATHER_TOOL.parameters }] }] } : {}),
      ...(options.thinking ? { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } : {}),
    };
  }

  /** Streams are merged the way an application would: parts appended in order, last usage wins. */
  private async send(model: string, options: Options, withTools: boolean): Promise<{ content: Content; reply: Reply }> {
    const request = { model, contents: this.history, config: this.config(options, withTools) };
    const chunks: GenerateContentResponse[] = options.stream
      ? await collect(await this.client.models.generateContentStream(request))
      : [await this.client.models.generateContent(request)];
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    const last = chunks.at(-1)!;
    const usage = [...chunks].reverse().find((c) => c.usageMetadata)?.usageMetadata;
    const reply: Reply = {
      text: parts.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join(''),
      thinking: parts.filter((p) => p.thought).map((p) => p.text).join(''),
      model: last.modelVersion ?? '',
      finish: [...chunks].reverse().find((c) => c.candidates?.[0]?.finishReason)?.candidates?.[0]?.finishReason ?? '',
      usage: { input: usage?.promptTokenCount ?? -1, output: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0) },
    };
    return { content: { role: 'model', parts }, reply };
  }

  async ask(model: string, text: string, options: Options): Promise<Reply> {
    this.history = [{ role: 'user', parts: [{ text }] }];
    return (await this.send(model, options, false)).reply;
  }

  async startTool(model: string, text: string, options: Options) {
    this.history = [{ role: 'user', parts: [{ text }] }];
    const { content, reply } = await this.send(model, options, true);
    this.history.push(content);
    const calls = (content.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall!);
    this.calls = calls.map((c) => ({ id: c.id, name: c.name! }));
    return { calls: calls.map((c) => ({ id: c.id, name: c.name!, args: (c.args ?? {}) as Record<string, unknown> })), reply };
  }

  async finishTool(model: string, output: Record<string, unknown>, options: Options): Promise<Reply> {
    this.history.push({ role: 'user', parts: this.calls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { output } } })) });
    return (await this.send(model, options, true)).reply;
  }
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

export function driverFor(dialect: DialectClient['dialect'], baseUrl: string, key: string): DialectClient {
  if (dialect === 'openai-responses') return new ResponsesDriver(baseUrl, key);
  if (dialect === 'openai') return new OpenAIDriver(baseUrl, key);
  if (dialect === 'anthropic') return new AnthropicDriver(baseUrl, key);
  return new GeminiDriver(baseUrl, key);
}
