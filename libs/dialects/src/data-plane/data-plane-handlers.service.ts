import { Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { StoredAnswersService } from '@rosetta/conversations';
import { decodePathPart, type ClientDialect, type ModelFacts } from '@rosetta/protocols/common';
import { ModelsEndpoint, RegistryService, type RegistryModel } from '@rosetta/registry';
import { ChatEndpoints } from '../chat-endpoints.service';
import { EmbeddingEndpoints } from '../embedding-endpoints.service';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { KeyEndpoint } from '../key/key-endpoint.service';
import { RouteEndpoint } from '../route/route-endpoint.service';
import type { HandlerName } from './data-plane-routes';

/**
 * What a route does once the request has its id, body, key and request limit. It writes the
 * response itself, or returns a body the data plane sends as JSON with status 200. `tail` is the
 * raw rest of a wildcard route's path; `dialect` the route's dialect.
 */
export type Handler = (req: GatewayHttpRequest, res: GatewayHttpResponse, tail: string, dialect: ClientDialect) => unknown;

/** Every route's handler, by operation: one implementation per operation, whatever the dialect. */
@Injectable()
export class DataPlaneHandlers {
  readonly byName: Readonly<Record<HandlerName, Handler>>;

  constructor(chat: ChatEndpoints, registry: RegistryService, models: ModelsEndpoint, key: KeyEndpoint, route: RouteEndpoint, answers: StoredAnswersService, embeddings: EmbeddingEndpoints) {
    this.byName = {
      chat: (req, res, _tail, dialect) => chat.serve(dialect, req, res),
      count_tokens: (req, _res, _tail, dialect) => chat.countTokens(dialect, req),
      embed: (req, res, _tail, dialect) => embeddings.serve(dialect, req, res),
      model_call: (req, res, tail, dialect) => {
        const call = dialect.parseModelCall!(tail);
        if (call.operation === 'count_tokens') return chat.countTokens(dialect, req, { model: call.model });
        if (call.operation === 'embed' || call.operation === 'batch_embed') return embeddings.serve(dialect, req, res, { model: call.model, batch: call.operation === 'batch_embed' });
        return chat.serve(dialect, req, res, { model: call.model, stream: call.operation === 'stream' });
      },
      // The same models, and the same allow-list, as /v1/models and /v1/models/{id}.
      list_models: (req, _res, _tail, dialect) => dialect.encodeModelList!(models.listed(req.apiKey?.models).map(facts)),
      get_model: (req, _res, tail, dialect) => dialect.encodeModel!(facts(models.permitted(registry.resolve(decodePathPart(tail, req.path), 'model'), req.apiKey?.models, 'model'))),
      stored_get: async (req, _res, tail, dialect) => dialect.storage!.render(await answers.get(decodePathPart(tail, req.path), authenticated(req).id, dialect.storage!.noun), req.query),
      stored_input_items: async (req, _res, tail, dialect) =>
        dialect.storage!.renderInputItems(await answers.get(decodePathPart(tail, req.path), authenticated(req).id, dialect.storage!.noun), req.query),
      stored_delete: async (req, _res, tail, dialect) => {
        const id = decodePathPart(tail, req.path);
        await answers.delete(id, authenticated(req).id, dialect.storage!.noun);
        return dialect.storage!.renderDeleted(id);
      },
      models: (req) => models.list(req.apiKey?.models),
      model: (req, _res, tail) => models.get(decodePathPart(tail, req.path), req.apiKey?.models),
      key: (req) => key.describe(authenticated(req)),
      route: (req) => route.explain(req),
    };
  }
}

function facts(model: RegistryModel): ModelFacts {
  const top = model.endpoints[0];
  return { id: model.id, displayName: model.displayName, description: model.description, contextLength: top?.contextLength, maxCompletionTokens: top?.maxCompletionTokens, kind: model.kind };
}

function authenticated(req: GatewayHttpRequest): NonNullable<GatewayHttpRequest['apiKey']> {
  if (!req.apiKey) throw new GatewayError('authentication_error', 'Missing API key');
  return req.apiKey;
}
