import type { CanonicalRequest, CanonicalResponse, DialectId, TranslationWarning } from '@rosetta/canonical';
import type { ChatService, ServedMeta } from '@rosetta/routing';
import { callContext } from './call-context';
import { sendJson, type GatewayHttpRequest, type GatewayHttpResponse } from './http-types';
import { writeRoutingHeaders } from './routing-headers';
import { writeEventStream, type StreamFraming } from './write-event-stream';

/** What a dialect contributes: how to render a whole response and how to frame a stream. */
export interface DialectEncoding {
  dialect: DialectId;
  response(response: CanonicalResponse, meta: ServedMeta): unknown;
  stream(meta: ServedMeta): StreamFraming;
}

/**
 * The flow every dialect controller shares: call the gateway, then write either the whole
 * response or the stream, with the routing headers. Decode-side warnings describe features the
 * canonical model cannot carry; they matter only when another protocol served the request (the
 * same-protocol fast path forwards the original body).
 */
export async function serveChat(
  chat: ChatService,
  req: GatewayHttpRequest,
  res: GatewayHttpResponse,
  request: CanonicalRequest,
  decodeWarnings: TranslationWarning[],
  encoding: DialectEncoding,
): Promise<void> {
  const ctx = callContext(req, res, (draft, status) => chat.recordUsage(draft, status));
  ctx.trace?.input(request);
  const warningsFor = (meta: ServedMeta) => (meta.protocol === encoding.dialect ? [] : decodeWarnings);
  if (!request.stream) {
    const outcome = await chat.complete(request, ctx);
    writeRoutingHeaders(res, outcome.meta, warningsFor(outcome.meta));
    ctx.trace?.output(outcome.response);
    sendJson(res, 200, encoding.response(outcome.response, outcome.meta));
    return;
  }
  const outcome = await chat.stream(request, ctx);
  writeRoutingHeaders(res, outcome.meta, warningsFor(outcome.meta));
  await writeEventStream(res, ctx.trace ? ctx.trace.outputStream(outcome.events) : outcome.events, encoding.stream(outcome.meta));
}
