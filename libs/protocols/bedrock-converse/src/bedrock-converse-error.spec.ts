import { parseBedrockConverseErrorBody } from './bedrock-converse-error';

describe('parseBedrockConverseErrorBody', () => {
  it.each([
    ['{"message":"Malformed input request"}', 'Malformed input request'],
    ['{"Message":"User is not authorized"}', 'User is not authorized'],
    ['{"message":""}', '{"message":""}'],
    ['  Service Unavailable  ', 'Service Unavailable'],
    ['', 'no error message'],
  ])('reads %j', (text, message) => {
    expect(parseBedrockConverseErrorBody(text)).toEqual({ message });
  });
});
