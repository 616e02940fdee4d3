import type { DialectId } from '@rosetta/canonical';
import type { ChatExchange } from '@rosetta/protocols/common';
import type { ChatService, ServedMeta } from '@rosetta/routing';
import { attributionOf } from './attribution';
import { callContext } from './call-context';
import { sendJson, type GatewayHttpRequest, type GatewayHttpResponse } from './http-types';
import { writeRoutingHeaders } from './routing-headers';
import { writeEventStream } from './write-event-stream';

/**
 * The flow every dialect shares: call the gateway, then write either the whole response or the
 * stream, with the routing headers. Decode-side warnings describe features the canonical model
 * cannot carry; they matter only when another protocol served the request (the same-protocol
 * fast path forwards the original body). A trace that captures content is given the prompt by
 * the chat use case, once its input guardrails have run (the redacted prompt; none when blocked).
 */
export async function serveChat(chat: ChatService, req: GatewayHttpRequest, res: GatewayHttpResponse, dialect: DialectId, exchange: ChatExchange): Promise<void> {
  const { request } = exchange;
  const ctx = callContext(req, res, (draft, status, ctx) => chat.recordUsage(draft, status, ctx), attributionOf(req.headers, request));
  const warningsFor = (meta: ServedMeta) => (meta.protocol === dialect ? [] : exchange.warnings);
  if (!request.stream) {
    const outcome = await chat.complete(request, ctx);
    writeRoutingHeaders(res, outcome.meta, warningsFor(outcome.meta));
    ctx.trace?.output(outcome.response);
    const body: unknown = exchange.encodeResponse(outcome.response);
    // A dialect that stores its answers hands back a promise that settles once it is stored.
    sendJson(res, 200, body instanceof Promise ? await body : body);
    return;
  }
  // Captured output is read from canonical text events: a trace that keeps it takes the full decode.
  const passThrough = exchange.passThroughFraming !== undefined && !ctx.trace?.captureContent;
  const outcome = await chat.stream(request, ctx, { passThrough });
  writeRoutingHeaders(res, outcome.meta, warningsFor(outcome.meta));
  const { model } = outcome.meta;
  const framing = outcome.meta.passThrough && exchange.passThroughFraming ? exchange.passThroughFraming(model, outcome.promptTokens) : exchange.streamFraming(model, outcome.promptTokens);
  await writeEventStream(res, ctx.trace ? ctx.trace.outputStream(outcome.events) : outcome.events, framing);
}
