import { HttpException } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { toGatewayError } from '../common/dialect-exception.filter';
import { parseGeminiModelPath, validateGeminiAlt } from '@rosetta/protocols/gemini';

function refusal(run: () => unknown): { status: number; type: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { status: error.status, type: error.type, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('Gemini model paths', () => {
  it('decodes the raw path the data plane hands over: the model may hold slashes, the method follows the last colon', () => {
    expect(parseGeminiModelPath('rosetta/gemini-2.5-flash:generateContent')).toEqual({ model: 'rosetta/gemini-2.5-flash', method: 'generateContent' });
    expect(parseGeminiModelPath('rosetta%2Fgemini-2.5-flash:streamGenerateContent')).toEqual({ model: 'rosetta/gemini-2.5-flash', method: 'streamGenerateContent' });
    expect(parseGeminiModelPath('rosetta/caf%C3%A9:countTokens')).toEqual({ model: 'rosetta/café', method: 'countTokens' });
  });

  it.each(['%ZZ', '%', 'rosetta/%E0%A4%A', '%C0', 'a%2'])('answers a malformed escape (%s) with a 400 naming the path, not a URIError', (model) => {
    expect(refusal(() => parseGeminiModelPath(`${model}:generateContent`))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: `Malformed percent-encoding in the request path '/v1beta/models/${model}:generateContent'`,
    });
  });

  it('decodes once: an escaped percent stays a percent', () => {
    // `/v1beta/models/%25ZZ:countTokens`: the model is the text `%ZZ`, not a malformed escape.
    expect(parseGeminiModelPath('%25ZZ:countTokens')).toEqual({ model: '%ZZ', method: 'countTokens' });
  });

  it('answers an unknown method with a 404', () => {
    expect(refusal(() => parseGeminiModelPath('rosetta/x:predict')).status).toBe(404);
    expect(refusal(() => parseGeminiModelPath('rosetta/x')).status).toBe(404);
  });

  it("names the path when Express's router cannot decode a route parameter", () => {
    const express = new HttpException("Failed to decode param '%ZZ'", 400);
    expect(toGatewayError(express, { method: 'GET', path: '/v1/models/%ZZ' })).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: "Malformed percent-encoding in the request path '/v1/models/%ZZ'",
    });
  });
});

describe('the Gemini alt query parameter', () => {
  it('is sse (server-sent events) or json, the default (one streamed JSON array)', () => {
    expect(validateGeminiAlt(undefined)).toBe(false);
    expect(validateGeminiAlt('json')).toBe(false);
    expect(validateGeminiAlt('sse')).toBe(true);
  });

  it.each([
    ['SSE', "got 'SSE'"],
    ['proto', "got 'proto'"],
    ['', "got ''"],
    [['sse', 'sse'], 'given 2 times'],
  ])('refuses %j with a 400 naming alt and the accepted values', (alt, got) => {
    expect(refusal(() => validateGeminiAlt(alt))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: `Invalid query parameter 'alt': must be 'sse' or 'json' (or absent), ${got}`,
    });
  });
});
