import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminSessionRepository } from './admin-session.repository';
import { AdminSessionService } from './admin-session.service';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { KeyCacheService } from './key-cache.service';
import { TeamCacheService } from './team-cache.service';
import { TeamRepository } from './team.repository';

@Module({
  providers: [AdminSessionRepository, AdminSessionService, ApiKeyRepository, KeyCacheService, ApiKeyService, TeamRepository, TeamCacheService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [AdminSessionService, ApiKeyService, KeyCacheService, TeamRepository, TeamCacheService],
})
export class AuthModule {}
