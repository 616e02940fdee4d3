import { GatewayError } from '@rosetta/canonical';
import { parseOpenAIChatErrorBody, renderOpenAIChatError } from './openai-chat-error';

describe('renderOpenAIChatError', () => {
  it('renders the envelope openai-node reads, with the request id beside it', () => {
    expect(renderOpenAIChatError(GatewayError.invalidRequest("Invalid type for 'temperature'.", 'temperature'), 'req_1')).toEqual({
      error: { message: "Invalid type for 'temperature'.", type: 'invalid_request_error', code: null, param: 'temperature' },
      request_id: 'req_1',
    });
    expect(renderOpenAIChatError(new GatewayError('rate_limit_error', 'Slow down', { code: 'rate_limit_exceeded' }), 'req_2')).toEqual({
      error: { message: 'Slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null },
      request_id: 'req_2',
    });
  });
});

describe('parseOpenAIChatErrorBody', () => {
  it.each([
    [
      '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
      { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    ],
    ['{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}', { message: 'max_tokens is too large', type: 'BadRequestError', code: '400' }],
    ['{"error":"model \\"llama9\\" not found"}', { message: 'model "llama9" not found' }],
    ['<html>502 Bad Gateway</html>', { message: '<html>502 Bad Gateway</html>' }],
    ['  ', { message: 'HTTP error' }],
    ['{"detail":"nope"}', { message: '{"detail":"nope"}' }],
  ])('reads %s', (text, expected) => {
    expect(parseOpenAIChatErrorBody(text)).toEqual(expected);
  });

  it('truncates a long raw body to 500 characters', () => {
    expect(parseOpenAIChatErrorBody('x'.repeat(2000)).message).toBe('x'.repeat(500));
  });
});
