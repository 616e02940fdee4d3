import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { clientAddress, userAgent, type AdminActor, type AdminRequest } from '../session/admin-actor';
import type { AuditEntry, AuditQuery } from './audit-entry';
import { AuditRepository } from './audit.repository';

export interface AuditTarget {
  type: string;
  id?: string;
  name?: string;
}

/**
 * Writes the audit log: every admin change (keys, teams, plans, providers, models) and every
 * sign-in, sign-in refused and sign-out, with who, what, when and from where. Written before the
 * answer goes out, so a change the caller saw succeed is always in the log.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async record(request: AdminRequest, actor: AdminActor | { name: string; role?: string; method: string }, action: string, target?: AuditTarget, details?: Record<string, unknown>): Promise<void> {
    try {
      await this.repository.insert({
        actor: actor.name,
        role: actor.role,
        method: actor.method,
        action,
        targetType: target?.type,
        targetId: target?.id,
        targetName: target?.name,
        details,
        ip: clientAddress(request),
        userAgent: userAgent(request),
        requestId: request.id,
      });
    } catch (error) {
      // The change itself is done; say loudly that its trace is missing rather than fail it.
      this.logger.error({ err: error instanceof Error ? error.message : String(error), action, requestId: request.id }, 'audit log: entry not written');
    }
  }

  list(query: AuditQuery): Promise<AuditEntry[]> {
    return this.repository.list(query);
  }
}
