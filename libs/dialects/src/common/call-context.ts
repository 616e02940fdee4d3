import { dialectForPath } from '@rosetta/protocols/dialects';
import { AbortLine } from '@rosetta/providers';
import type { CallContext } from '@rosetta/routing';
import { UsageDraft, type Attribution } from '@rosetta/usage';
import type { GatewayHttpRequest, GatewayHttpResponse } from './http-types';

const CLIENT_CLOSED_REQUEST = 499;

/**
 * A call context whose signal fires when the client disconnects before the response ends, with a
 * usage-ledger draft that `onClose` receives (with the context: whose budgets a cost is charged
 * to) once the response is over, whatever happened. The request's attribution (attributionOf) is
 * on the draft from the start, so a refused request's row has it too, and its end user is what an
 * end-user budget holds.
 */
export function callContext(req: GatewayHttpRequest, res: GatewayHttpResponse, onClose?: (draft: UsageDraft, status: number, ctx: CallContext) => void, attribution: Attribution = {}): CallContext {
  const signal = new AbortLine();
  const beforeRecord: Array<() => void> = [];
  const usage = new UsageDraft({ requestId: req.id, clientRequestId: req.clientRequestId, apiKeyId: req.apiKey?.id, teamId: req.apiKey?.teamId ?? undefined, dialect: req.dialect ?? dialectForPath(req.path) });
  usage.attributed(attribution);
  req.usageDraft = usage;
  res.on('close', () => {
    if (!res.writableEnded) {
      signal.abort();
      usage.disconnected();
    }
    // A client gone before the status line went out was never answered: 499 (nginx's "client
    // closed request"), not the 200 a response object holds by default.
    // Whatever is still relaying (a stream the client cut) writes what it has used so far first.
    for (const fill of beforeRecord) fill();
    usage.abandoned();
    onClose?.(usage, res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST, ctx);
  });
  const ctx: CallContext = {
    requestId: req.id,
    signal,
    key: req.apiKey,
    usage,
    trace: req.trace,
    requestCount: req.requestCount,
    endUser: attribution.endUser,
    cacheControl: req.headers['cache-control'],
    setHeaders: (headers) => {
      if (!res.headersSent) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    },
    beforeRecord: (fill) => beforeRecord.push(fill),
  };
  return ctx;
}
