import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { estimatePromptTokens } from '@rosetta/limits';
import { convertAnthropicMessagesRequest } from '@rosetta/protocols/anthropic-messages';
import { RoutingService } from '@rosetta/routing';
import { ChatEndpoints } from '../chat-endpoints.service';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { validateAnthropicCountTokensRequest } from './anthropic-messages.validate';

/** Dialect B: count_tokens, and messages for path variants the chat lane does not match. */
@Controller('v1/messages')
export class AnthropicMessagesController {
  constructor(
    private readonly endpoints: ChatEndpoints,
    private readonly routing: RoutingService,
  ) {}

  @Post()
  @HttpCode(200)
  create(@Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    return this.endpoints.anthropic(req, res);
  }

  /** An estimate from a real tokenizer; the model id is checked like any request's. */
  @Post('count_tokens')
  @HttpCode(200)
  countTokens(@Req() req: GatewayHttpRequest): { input_tokens: number } {
    const body = { max_tokens: 1, ...validateAnthropicCountTokensRequest(req.body) };
    const { value: request } = convertAnthropicMessagesRequest({ body });
    this.routing.resolveModels(request);
    return { input_tokens: estimatePromptTokens(request) };
  }
}
