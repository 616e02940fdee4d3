import { thinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

const HEADERS = { 'x-goog-api-key': 'gk-sim', 'content-type': 'application/json' };

type Content = { role?: string; parts: Array<Record<string, unknown>> };

const question: Content = { role: 'user', parts: [{ text: 'weather in Paris and Rome?' }] };
const call = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ functionCall: { name, args: { city: 'Paris' } }, ...extra });
const answer = (name: string): Record<string, unknown> => ({ functionResponse: { name, response: { output: 'sunny' } } });

/** Posts contents; returns the status and, for 400s, the message from Google's envelope. */
async function send(sim: RunningSimulator, contents: Content[], model = 'gemini-sim'): Promise<{ status: number; message?: string }> {
  const response = await fetch(`${sim.url}/v1beta/models/${model}:generateContent`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ contents }) });
  const body = (await response.json()) as { error?: { code: number; message: string; status: string } };
  if (response.status !== 400) return { status: response.status };
  expect(body.error).toEqual({ code: 400, message: expect.any(String), status: 'INVALID_ARGUMENT' });
  return { status: 400, message: body.error?.message };
}

const COUNT_MISMATCH =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

describe('Gemini strictness (each rule: one accepted and one rejected request)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('accepts only the roles user and model', async () => {
    expect(await send(sim, [question, { role: 'model', parts: [{ text: 'hi' }] }, { parts: [{ text: 'no role reads as user' }] }])).toEqual({ status: 200 });
    expect(await send(sim, [{ role: 'assistant', parts: [{ text: 'hi' }] }])).toEqual({ status: 400, message: 'Please use a valid role: user, model.' });
    expect(await send(sim, [question, { role: 'model', parts: [call('get_weather')] }, { role: 'function', parts: [answer('get_weather')] }])).toEqual({
      status: 400,
      message: 'Please use a valid role: user, model.',
    });
  });

  it('requires as many function responses as function calls in the next content', async () => {
    const calls: Content = { role: 'model', parts: [call('get_weather'), call('get_weather')] };
    expect(await send(sim, [question, calls, { role: 'user', parts: [answer('get_weather'), answer('get_weather')] }])).toEqual({ status: 200 });
    expect(await send(sim, [question, calls, { role: 'user', parts: [answer('get_weather')] }])).toEqual({ status: 400, message: COUNT_MISMATCH });
    expect(await send(sim, [question, calls, { role: 'user', parts: [{ text: 'never mind' }] }])).toEqual({ status: 400, message: COUNT_MISMATCH });
  });

  it('requires the function responses to name the called functions', async () => {
    const calls: Content = { role: 'model', parts: [call('get_weather'), call('get_time')] };
    expect(await send(sim, [question, calls, { role: 'user', parts: [answer('get_time'), answer('get_weather')] }])).toEqual({ status: 200 });
    expect(await send(sim, [question, calls, { role: 'user', parts: [answer('get_weather'), answer('get_weather')] }])).toEqual({
      status: 400,
      message: expect.stringMatching(/^Please ensure that the function response parts match the function call parts/),
    });
  });

  it('rejects function responses that do not follow a function call turn', async () => {
    expect(await send(sim, [question, { role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [answer('get_weather')] }])).toEqual({
      status: 400,
      message: 'Please ensure that function response turn comes immediately after a function call turn.',
    });
  });

  it('verifies thought signatures on functionCall and text parts; a tampered one is corrupted', async () => {
    const signedCall: Content = { role: 'model', parts: [call('get_weather', { thoughtSignature: thinkingSignature('gemini', 'get_weather') })] };
    expect(await send(sim, [question, signedCall, { role: 'user', parts: [answer('get_weather')] }])).toEqual({ status: 200 });
    const forged: Content = { role: 'model', parts: [call('get_weather', { thoughtSignature: thinkingSignature('gemini', 'get_time') })] };
    expect(await send(sim, [question, forged, { role: 'user', parts: [answer('get_weather')] }])).toEqual({ status: 400, message: 'Corrupted thought signature.' });

    const text = 'It is sunny.';
    const signedText: Content = { role: 'model', parts: [{ text, thoughtSignature: thinkingSignature('gemini', text) }] };
    expect(await send(sim, [question, signedText, { role: 'user', parts: [{ text: 'thanks' }] }])).toEqual({ status: 200 });
    // Streamed pieces sent back unmerged: the signature on the first piece covers the joined text.
    const pieces: Content = { role: 'model', parts: [{ text: 'It is ', thoughtSignature: thinkingSignature('gemini', text) }, { text: 'sunny.' }] };
    expect(await send(sim, [question, pieces, { role: 'user', parts: [{ text: 'thanks' }] }])).toEqual({ status: 200 });
    const tampered: Content = { role: 'model', parts: [{ text: 'It is rainy.', thoughtSignature: thinkingSignature('gemini', text) }] };
    expect(await send(sim, [question, tampered, { role: 'user', parts: [{ text: 'thanks' }] }])).toEqual({ status: 400, message: 'Corrupted thought signature.' });
    const dummy: Content = { role: 'model', parts: [call('get_weather', { thoughtSignature: 'skip_thought_signature_validator' })] };
    expect(await send(sim, [question, dummy, { role: 'user', parts: [answer('get_weather')] }])).toEqual({ status: 200 });
  });

  it('on Gemini 3, refuses the current turn\'s first function call without a signature', async () => {
    const unsigned: Content = { role: 'model', parts: [{ text: 'Checking.' }, call('get_weather'), call('get_time')] };
    const replies: Content = { role: 'user', parts: [answer('get_weather'), answer('get_time')] };
    expect(await send(sim, [question, unsigned, replies], 'gemini-3-pro-preview')).toEqual({
      status: 400,
      message: expect.stringMatching(/^Function call is missing a thought_signature in functionCall parts\..*`default_api:get_weather` , position 2\./),
    });
    // Older models do not check; a dummy or a real signature on the first call satisfies Gemini 3;
    // an earlier turn (before the user wrote again) is not checked.
    expect(await send(sim, [question, unsigned, replies], 'gemini-2.5-flash')).toEqual({ status: 200 });
    const dummy: Content = { role: 'model', parts: [call('get_weather', { thoughtSignature: 'skip_thought_signature_validator' }), call('get_time')] };
    expect(await send(sim, [question, dummy, replies], 'gemini-3-pro-preview')).toEqual({ status: 200 });
    expect(await send(sim, [question, unsigned, replies, { role: 'model', parts: [{ text: 'Sunny.' }] }, { role: 'user', parts: [{ text: 'thanks' }] }], 'gemini-3-pro-preview')).toEqual({ status: 200 });
  });

  it('requires functionCall args to be an object', async () => {
    expect(await send(sim, [question, { role: 'model', parts: [call('get_weather')] }, { role: 'user', parts: [answer('get_weather')] }])).toEqual({ status: 200 });
    const bad: Content = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: '{"city":"Paris"}' } }] };
    expect(await send(sim, [question, bad, { role: 'user', parts: [answer('get_weather')] }])).toEqual({
      status: 400,
      message: `Invalid value at 'contents[1].parts[0].function_call.args' (type.googleapis.com/google.protobuf.Struct), "{\\"city\\":\\"Paris\\"}"`,
    });
  });

  it('records rejected requests too', async () => {
    sim.reset();
    await send(sim, [{ role: 'bot', parts: [{ text: 'x' }] }]);
    expect(sim.requests().map((request) => [request.protocol, request.path])).toEqual([['gemini', '/v1beta/models/gemini-sim:generateContent']]);
  });
});
