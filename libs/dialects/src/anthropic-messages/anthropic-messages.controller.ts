import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { estimatePromptTokens } from '@rosetta/limits';
import { validateBody } from '@rosetta/platform';
import {
  AnthropicMessagesStreamEncoder,
  convertAnthropicMessagesRequest,
  convertToAnthropicMessagesResponse,
} from '@rosetta/protocols/anthropic-messages';
import { ChatService, RoutingService } from '@rosetta/routing';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { serveChat } from '../common/serve-chat';
import { AnthropicCountTokensDto, AnthropicMessagesRequestDto } from './anthropic-messages.dto';

const SSE = 'text/event-stream; charset=utf-8';

function header(req: GatewayHttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Dialect B: Anthropic messages and count_tokens. */
@Controller('v1/messages')
export class AnthropicMessagesController {
  constructor(
    private readonly chat: ChatService,
    private readonly routing: RoutingService,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    validateBody(AnthropicMessagesRequestDto, req.body);
    const { value: request, warnings } = convertAnthropicMessagesRequest({ body: req.body as Record<string, unknown> });
    // ARCHITECTURE §4.12: the version defaults to 2023-06-01; both headers reach Anthropic upstreams.
    const headers: Record<string, string> = { 'anthropic-version': header(req, 'anthropic-version') ?? '2023-06-01' };
    const beta = header(req, 'anthropic-beta');
    if (beta) headers['anthropic-beta'] = beta;
    if (request.passthrough) request.passthrough.headers = headers;
    res.setHeader('request-id', req.id);
    await serveChat(this.chat, req, res, request, warnings, {
      dialect: 'anthropic',
      response: (response) => convertToAnthropicMessagesResponse({ response }),
      stream: (meta) => {
        const encoder = new AnthropicMessagesStreamEncoder({ id: `msg_${req.id.replace(/^req_/, '')}`, model: meta.model, inputTokensHint: estimatePromptTokens(request) });
        return { contentType: SSE, encode: (event) => encoder.encode(event) };
      },
    });
  }

  /** An estimate from a real tokenizer; the model id is checked like any request's. */
  @Post('count_tokens')
  @HttpCode(200)
  countTokens(@Req() req: GatewayHttpRequest): { input_tokens: number } {
    validateBody(AnthropicCountTokensDto, req.body);
    const body = { max_tokens: 1, ...(req.body as Record<string, unknown>) };
    const { value: request } = convertAnthropicMessagesRequest({ body });
    this.routing.resolveModels(request);
    return { input_tokens: estimatePromptTokens(request) };
  }
}
