import type { UpstreamResponse } from '../http-transport';

/**
 * Bedrock's errors, whatever protocol is behind it: the type in the `x-amzn-errortype` header
 * (`ThrottlingException:http://internal.amazon.com/…`), the text in `{"message"}` (`Message` from
 * some front ends). The message names the type, as the AWS SDKs do; a body Bedrock did not write
 * (the model's own error passed through) goes to the protocol's parser.
 */
export function bedrockErrorParser(protocolParser: (text: string) => { message: string }) {
  return (text: string, headers: UpstreamResponse['headers']): { message: string } => {
    const header = headers['x-amzn-errortype'];
    const type = (Array.isArray(header) ? header[0] : header)?.split(':')[0]?.trim();
    const said = messageOf(text);
    if (said === undefined) return type ? { message: `${type}: ${protocolParser(text).message}` } : protocolParser(text);
    return { message: type ? `${type}: ${said}` : said };
  };
}

function messageOf(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const message = (body as Record<string, unknown>)['message'] ?? (body as Record<string, unknown>)['Message'];
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
