import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ChatEndpoints } from '../chat-endpoints.service';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';

/**
 * Dialect A through Nest: only path variants the chat lane does not match (a trailing slash,
 * other letter case) get here; both call the same endpoint.
 */
@Controller('v1/chat')
export class OpenAIChatController {
  constructor(private readonly endpoints: ChatEndpoints) {}

  @Post('completions')
  @HttpCode(200)
  create(@Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    return this.endpoints.openai(req, res);
  }
}
