import { GatewayError } from '@rosetta/canonical';
import { geminiRpcStatus, parseGeminiErrorBody, renderGeminiError } from './gemini-error';

describe('gemini errors', () => {
  it("renders Google's envelope with our type and the request id", () => {
    const error = new GatewayError('rate_limit_error', 'Slow down.');
    expect(renderGeminiError(error, 'req-1')).toEqual({
      error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED', type: 'rate_limit_error' },
      request_id: 'req-1',
    });
    expect([geminiRpcStatus(404), geminiRpcStatus(418), geminiRpcStatus(507)]).toEqual(['NOT_FOUND', 'INVALID_ARGUMENT', 'INTERNAL']);
  });

  it.each([
    [
      '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[]}}',
      { message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
    ],
    ['[{\n  "error": {\n    "code": 429,\n    "message": "Quota exceeded",\n    "status": "RESOURCE_EXHAUSTED"\n  }\n}\n]', { message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' }],
    ['{"error":{"code":500}}', { message: '{"error":{"code":500}}' }],
    ['{"error":"backend down"}', { message: 'backend down' }],
    ['<html>502 Bad Gateway</html>', { message: '<html>502 Bad Gateway</html>' }],
    ['   ', { message: 'HTTP error' }],
  ])('reads the upstream error body %s', (text, expected) => {
    expect(parseGeminiErrorBody(text)).toEqual(expected);
  });
});
