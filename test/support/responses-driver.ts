import OpenAI from 'openai';
import type { DialectClient, Options, Reply, ToolCallSeen } from './dialect-clients';
import { WEATHER_TOOL } from './dialect-clients';

type InputItem = OpenAI.Responses.ResponseInputItem;

/**
 * The Responses API through the official SDK, the way Codex drives it: `store: false`, encrypted
 * reasoning included, and the output items sent back verbatim with the tool outputs.
 */
export class ResponsesDriver implements DialectClient {
  readonly dialect = 'openai-responses' as const;
  private readonly client: OpenAI;
  private input: InputItem[] = [];
  private calls: OpenAI.Responses.ResponseFunctionToolCall[] = [];

  constructor(baseUrl: string, key: string) {
    this.client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  }

  private async send(model: string, options: Options, withTools: boolean): Promise<OpenAI.Responses.Response> {
    const params = {
      model,
      input: this.input,
      store: false,
      include: ['reasoning.encrypted_content' as const],
      ...(withTools ? { tools: [{ type: 'function' as const, name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: { ...WEATHER_TOOL.parameters }, strict: false }] } : {}),
      ...(options.thinking ? { reasoning: { effort: 'low' as const, summary: 'auto' as const } } : {}),
    };
    return options.stream ? this.client.responses.stream(params).finalResponse() : this.client.responses.create(params);
  }

  private reply(response: OpenAI.Responses.Response): Reply {
    const thinking = response.output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((s) => s.text) : [])).join('');
    const calls = response.output.some((item) => item.type === 'function_call');
    const finish = response.status === 'completed' ? (calls ? 'tool_calls' : 'stop') : (response.status ?? '');
    return { text: response.output_text, thinking, model: response.model, finish, usage: { input: response.usage?.input_tokens ?? -1, output: response.usage?.output_tokens ?? -1 } };
  }

  async ask(model: string, text: string, options: Options): Promise<Reply> {
    this.input = [{ role: 'user', content: text }];
    return this.reply(await this.send(model, options, false));
  }

  async startTool(model: string, text: string, options: Options): Promise<{ calls: ToolCallSeen[]; reply: Reply }> {
    this.input = [{ role: 'user', content: text }];
    const response = await this.send(model, options, true);
    this.input.push(...(response.output as InputItem[]));
    this.calls = response.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    return { calls: this.calls.map((c) => ({ id: c.call_id, name: c.name, args: JSON.parse(c.arguments) })), reply: this.reply(response) };
  }

  async finishTool(model: string, output: Record<string, unknown>, options: Options): Promise<Reply> {
    for (const call of this.calls) this.input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(output) });
    return this.reply(await this.send(model, options, true));
  }
}
