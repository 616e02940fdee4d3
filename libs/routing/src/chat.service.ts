import { Injectable } from '@nestjs/common';
import type { CanonicalRequest } from '@rosetta/canonical';
import { ExecutorService } from './executor.service';
import type { CallContext, CompletionOutcome, StreamOutcome } from './outcome';
import { RoutingService } from './routing.service';

/** The one entry point every dialect controller calls: plan, then execute. */
@Injectable()
export class ChatService {
  constructor(
    private readonly routing: RoutingService,
    private readonly executor: ExecutorService,
  ) {}

  complete(request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    return this.executor.complete(this.routing.plan(request), request, ctx);
  }

  stream(request: CanonicalRequest, ctx: CallContext): Promise<StreamOutcome> {
    return this.executor.stream(this.routing.plan(request), request, ctx);
  }
}
