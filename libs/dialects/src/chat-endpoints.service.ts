import { Inject, Injectable } from '@nestjs/common';
import { StoredAnswersService } from '@rosetta/conversations';
import { estimatePromptTokens } from '@rosetta/limits';
import type { ChatInput, ClientDialect } from '@rosetta/protocols/common';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { ChatService, RoutingService } from '@rosetta/routing';
import type { GatewayHttpRequest, GatewayHttpResponse } from './common/http-types';
import { serveChat } from './common/serve-chat';

/**
 * Chat and token counting for every dialect: the dialect's descriptor decodes (checks the body
 * and converts it to the canonical request, in one pass) and encodes; the gateway plans, calls and answers. No
 * protocol knowledge here.
 */
@Injectable()
export class ChatEndpoints {
  private readonly autoModel: string;

  constructor(
    private readonly chat: ChatService,
    private readonly routing: RoutingService,
    private readonly answers: StoredAnswersService,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
  ) {
    this.autoModel = `${config.modelNamespace}/auto`;
  }

  /** A chat call; `path` carries the model and streaming where the route's path names them. */
  async serve(dialect: ClientDialect, req: GatewayHttpRequest, res: GatewayHttpResponse, path: { model?: string; stream?: boolean } = {}): Promise<void> {
    const input = await this.withStored(dialect, req, this.input(req, path));
    const exchange = dialect.decodeChat(input);
    for (const [name, value] of Object.entries(exchange.headers ?? {})) res.setHeader(name, value);
    await serveChat(this.chat, req, res, dialect.id, exchange);
  }

  /** `count_tokens`: an estimate from a real tokenizer; the model id is checked like any request's. */
  async countTokens(dialect: ClientDialect, req: GatewayHttpRequest, path: { model?: string } = {}): Promise<unknown> {
    if (!dialect.decodeCountTokens) throw new Error(`dialect ${dialect.id} declares a count_tokens route without decodeCountTokens`);
    const { request, encode } = dialect.decodeCountTokens(await this.withStored(dialect, req, this.input(req, path)));
    this.routing.resolveModels(request);
    return encode(estimatePromptTokens(request));
  }

  /**
   * Only dialects that keep answers (the Responses API) read the database on this path, and only
   * when the body continues from stored answers: what it refers to, for the caller's key.
   */
  private async withStored(dialect: ClientDialect, req: GatewayHttpRequest, input: ChatInput): Promise<ChatInput> {
    if (!dialect.storage || !req.apiKey) return input;
    const owner = req.apiKey.id;
    input.stored = await this.answers.load(dialect.storage.references(req.body), owner, dialect.storage.continuedBy);
    input.keep = (answer) => this.answers.keep(answer, owner, dialect.id);
    return input;
  }

  private input(req: GatewayHttpRequest, path: { model?: string; stream?: boolean }): ChatInput {
    return { body: req.body, query: req.query, headers: req.headers, requestId: req.id, model: path.model, stream: path.stream, defaultModel: this.autoModel };
  }
}
