import { GatewayError } from '@rosetta/canonical';
import { convertAnthropicMessagesRequest } from '@rosetta/protocols/anthropic-messages';
import { convertGeminiRequest } from '@rosetta/protocols/gemini';
import { convertOpenAIChatRequest } from '@rosetta/protocols/openai-chat';

/** Each dialect's decode (checked and converted in one pass), answering the body it forwards. */
const decodeOpenAI = (body: unknown) => convertOpenAIChatRequest({ body }).value.passthrough?.body;
const decodeAnthropic = (body: unknown) => convertAnthropicMessagesRequest({ body }).value.passthrough?.body;
const decodeGemini = (body: Record<string, unknown>) => convertGeminiRequest({ body, model: 'rosetta/gemini-2.5-flash' }).value.passthrough?.body;

function failure(run: () => unknown): { param?: string; message: string; status: number } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { param: error.param, message: error.message, status: error.status };
  }
  throw new Error('expected the body to be refused');
}

const openai = { model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
const anthropic = { model: 'rosetta/claude-haiku-4.5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
const gemini = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('chat request checks (each dialect decodes and checks in one pass)', () => {
  it('passes valid bodies through untouched, unknown fields included', () => {
    const body = { ...openai, logit_bias: { 12: 1 }, tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }], stop: ['a'] };
    expect(decodeOpenAI(body)).toBe(body);
    const b = { ...anthropic, thinking: { type: 'enabled', budget_tokens: 2048 }, tool_choice: { type: 'tool', name: 'x' }, tools: [{ name: 'x', input_schema: {} }] };
    expect(decodeAnthropic(b)).toBe(b);
    const c = { ...gemini, generationConfig: { temperature: 0.5, maxOutputTokens: 10 }, route_knob: 0.3, models: ['rosetta/gpt-4o'] };
    expect(decodeGemini(c)).toBe(c);
  });

  it.each([
    [{ messages: openai.messages }, 'model', "Missing required field 'model'"],
    [{ model: 'm' }, 'messages', "Missing required field 'messages'"],
    [{ model: 'm', messages: [] }, 'messages', "Invalid 'messages': must contain at least 1 item"],
    [{ model: 5, messages: openai.messages }, 'model', "Invalid 'model': must be a string"],
    [{ ...openai, messages: [openai.messages[0], { role: 'robot', content: 'x' }] }, 'messages[1].role', "Invalid 'messages[1].role': must be one of system, developer, user, assistant, tool, function"],
    [{ ...openai, messages: ['hi'] }, 'messages[0]', "Invalid 'messages[0]': must be an object"],
    [{ ...openai, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id', "Invalid 'messages[0].tool_call_id': is required on tool messages"],
    [{ ...openai, messages: [{ role: 'user', content: null }] }, 'messages[0].content', undefined],
    [{ ...openai, messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] }] }, 'messages[0].tool_calls[0].function.arguments', undefined],
    [{ ...openai, temperature: 'hot' }, 'temperature', "Invalid 'temperature': must be a number"],
    [{ ...openai, temperature: 3 }, 'temperature', "Invalid 'temperature': must not be greater than 2"],
    [{ ...openai, max_tokens: 1.5 }, 'max_tokens', "Invalid 'max_tokens': must be an integer"],
    [{ ...openai, n: 0 }, 'n', "Invalid 'n': must not be less than 1"],
    [{ ...openai, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop', undefined],
    [{ ...openai, tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools[0].function.name', undefined],
    [{ ...openai, tool_choice: 'sometimes' }, 'tool_choice', undefined],
    // The converter's spec names the member that is missing; the one pass keeps that, the finer path.
    [{ ...openai, response_format: { type: 'json_schema' } }, 'response_format.json_schema', undefined],
    [{ ...openai, provider_only: ['groq', 7] }, 'provider_only[1]', "Invalid 'provider_only[1]': must be a string"],
    [{ ...openai, provider_sort: 'cheapest' }, 'provider_sort', "Invalid 'provider_sort': must be one of price, throughput, latency"],
    [{ ...openai, route_knob: 1.5 }, 'route_knob', "Invalid 'route_knob': must not be greater than 1"],
    [{ ...openai, provider_max_prompt_price: -1 }, 'provider_max_prompt_price', undefined],
  ])('dialect A refuses %j naming %s', (body, param, message) => {
    const error = failure(() => decodeOpenAI(body));
    expect(error).toMatchObject({ status: 400, param });
    if (message) expect(error.message).toBe(message);
    else expect(error.message).toContain(`'${param}'`);
  });

  it.each([
    [{ ...anthropic, max_tokens: undefined }, 'max_tokens', "Missing required field 'max_tokens'"],
    [{ ...anthropic, messages: [{ role: 'model', content: 'x' }] }, 'messages[0].role', "Invalid 'messages[0].role': must be 'user', 'assistant' or 'system'"],
    [{ ...anthropic, messages: [{ role: 'user', content: [{ text: 'no type' }] }] }, 'messages[0].content', undefined],
    [{ ...anthropic, system: 5 }, 'system', undefined],
    [{ ...anthropic, thinking: { type: 'enabled', budget_tokens: 100 } }, 'thinking.budget_tokens', "Invalid 'thinking.budget_tokens': must not be less than 1024"],
    [{ ...anthropic, thinking: { type: 'enabled' } }, 'thinking.budget_tokens', "Missing required field 'thinking.budget_tokens'"],
    [{ ...anthropic, tool_choice: 'auto' }, 'tool_choice', "Invalid 'tool_choice': must be an object"],
    [{ ...anthropic, tool_choice: { type: 'tool' } }, 'tool_choice.name', undefined],
    [{ ...anthropic, tools: [{ name: 'x' }] }, 'tools[0].input_schema', undefined],
    [{ ...anthropic, temperature: 1.5 }, 'temperature', "Invalid 'temperature': must not be greater than 1"],
    [{ ...anthropic, stop_sequences: 'END' }, 'stop_sequences', undefined],
  ])('dialect B refuses %j naming %s', (body, param, message) => {
    const error = failure(() => decodeAnthropic(body));
    expect(error).toMatchObject({ status: 400, param });
    if (message) expect(error.message).toBe(message);
    else expect(error.message).toContain(`'${param}'`);
  });

  it.each([
    [{}, 'contents', "Missing required field 'contents'"],
    [{ contents: [{ role: 'assistant', parts: [] }] }, 'contents[0].role', "Invalid 'contents[0].role': must be 'user' or 'model'"],
    [{ contents: [{ role: 'user' }] }, 'contents[0].parts', "Missing required field 'contents[0].parts'"],
    [{ contents: [{ parts: ['text'] }] }, 'contents[0].parts', undefined],
    [{ ...gemini, generationConfig: { maxOutputTokens: 0 } }, 'generationConfig.maxOutputTokens', undefined],
    [{ ...gemini, systemInstruction: 'be brief' }, 'systemInstruction', "Invalid 'systemInstruction': must be an object"],
    [{ ...gemini, tools: {} }, 'tools', "Invalid 'tools': must be an array"],
  ])('dialect C refuses %j naming %s', (body, param, message) => {
    const error = failure(() => decodeGemini(body as Record<string, unknown>));
    expect(error).toMatchObject({ status: 400, param });
    if (message) expect(error.message).toBe(message);
    else expect(error.message).toContain(`'${param}'`);
  });

  it('refuses a body that is not an object', () => {
    expect(failure(() => decodeOpenAI([openai]))).toMatchObject({ status: 400, message: 'The request body must be a JSON object' });
    expect(failure(() => decodeAnthropic(undefined))).toMatchObject({ status: 400, message: 'The request body must be a JSON object' });
  });
});
