import { GatewayError } from '@rosetta/canonical';
import { parseAnthropicMessagesErrorBody, renderAnthropicMessagesError } from './anthropic-messages-error';

describe('renderAnthropicMessagesError', () => {
  it("renders Anthropic's envelope with the request id beside it", () => {
    expect(renderAnthropicMessagesError(GatewayError.invalidRequest("Invalid type for 'max_tokens'.", 'max_tokens'), 'req_1')).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: "Invalid type for 'max_tokens'." },
      request_id: 'req_1',
    });
  });
});

describe('parseAnthropicMessagesErrorBody', () => {
  it.each([
    [
      '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_011C"}',
      { message: 'Number of request tokens has exceeded your per-minute rate limit', type: 'rate_limit_error' },
    ],
    ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', { message: 'Overloaded', type: 'overloaded_error' }],
    ['{"type":"error","message":"proxy says no"}', { message: 'proxy says no' }],
    ['{"error":{"message":"no type"}}', { message: 'no type' }],
    ['<html>502 Bad Gateway</html>', { message: '<html>502 Bad Gateway</html>' }],
    ['{"type":"error","error":{"type":"api_error"}}', { message: '{"type":"error","error":{"type":"api_error"}}' }],
    ['  ', { message: 'HTTP error' }],
  ])('reads %s', (text, expected) => {
    expect(parseAnthropicMessagesErrorBody(text)).toEqual(expected);
  });

  it('truncates a long raw body to 500 characters', () => {
    expect(parseAnthropicMessagesErrorBody(`  ${'x'.repeat(2000)}`).message).toBe('x'.repeat(500));
  });
});
