import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from '@rosetta/auth';
import { ConversationsModule } from '@rosetta/conversations';
import { BudgetModule, RateLimitModule } from '@rosetta/limits';
import { RegistryModule } from '@rosetta/registry';
import { RoutingModule } from '@rosetta/routing';
import { ChatEndpoints } from './chat-endpoints.service';
import { EmbeddingEndpoints } from './embedding-endpoints.service';
import { DialectExceptionFilter } from './common/dialect-exception.filter';
import { DataPlaneHandlers } from './data-plane/data-plane-handlers.service';
import { DataPlane } from './data-plane/data-plane.service';
import { KeyEndpoint } from './key/key-endpoint.service';
import { RouteEndpoint } from './route/route-endpoint.service';

/**
 * The client-facing routes: served by DataPlane ahead of Nest's router (main.ts installs it), so
 * this module has no controllers. The exception filter renders Nest's own failures (its 404s,
 * admin errors) in the dialect of the path.
 */
@Module({
  imports: [RoutingModule, RegistryModule, AuthModule, RateLimitModule, BudgetModule, ConversationsModule],
  providers: [ChatEndpoints, EmbeddingEndpoints, KeyEndpoint, RouteEndpoint, DataPlaneHandlers, DataPlane, { provide: APP_FILTER, useClass: DialectExceptionFilter }],
  exports: [DataPlane, RouteEndpoint],
})
export class DialectsModule {}
