import { Injectable } from '@nestjs/common';
import type { ClientDialect } from '@rosetta/protocols/common';
import { EmbeddingService } from '@rosetta/routing';
import { attributionOf } from './common/attribution';
import { callContext } from './common/call-context';
import { sendJson, type GatewayHttpRequest, type GatewayHttpResponse } from './common/http-types';
import { writeRoutingHeaders } from './common/routing-headers';

/**
 * Embeddings for every dialect: the dialect's descriptor decodes (validating as it goes) and
 * encodes; the gateway plans, admits, calls and meters, as for chat. The routing headers and
 * `x-rosetta-cost-usd` go out as on a chat answer. No protocol knowledge here.
 */
@Injectable()
export class EmbeddingEndpoints {
  constructor(private readonly embeddings: EmbeddingService) {}

  /** `path` carries the model and the batch shape where the route's path names them (Gemini). */
  async serve(dialect: ClientDialect, req: GatewayHttpRequest, res: GatewayHttpResponse, path: { model?: string; batch?: boolean } = {}): Promise<void> {
    if (!dialect.decodeEmbed) throw new Error(`dialect ${dialect.id} declares an embeddings route without decodeEmbed`);
    const exchange = dialect.decodeEmbed({ body: req.body, query: req.query, headers: req.headers, requestId: req.id, model: path.model, batch: path.batch });
    const ctx = callContext(req, res, (draft, status, ctx) => this.embeddings.recordUsage(draft, status, ctx), attributionOf(req.headers, exchange.request));
    const outcome = await this.embeddings.embed(exchange.request, ctx);
    // Decode-side warnings matter only when another protocol served it (the same one got the body as sent).
    writeRoutingHeaders(res, outcome.meta, outcome.meta.protocol === dialect.id ? [] : exchange.warnings);
    sendJson(res, 200, exchange.encodeResponse(outcome.response, outcome.meta.costUsd));
  }
}
