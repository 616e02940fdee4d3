import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { userAgent, type AdminActor, type AdminRequest } from '../session/admin-actor';
import { AdminAuthThrottle } from '../session/admin-auth-throttle.service';
import type { AuditEntry, AuditQuery, NewAuditEntry } from './audit-entry';
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
    private readonly addresses: AdminAuthThrottle,
  ) {}

  /**
   * The entry of an admin change, written in the change's transaction: a failure here fails (and
   * rolls back) the change, so no change is ever made without its entry.
   */
  async recordChange(request: AdminRequest, actor: AdminActor, action: string, target: AuditTarget, details?: Record<string, unknown>): Promise<void> {
    await this.repository.insert(this.entry(request, actor, action, target, details));
  }

  /** A sign-in event: written on its own, and a failure to write it is logged, not thrown. */
  async record(request: AdminRequest, actor: AdminActor | { name: string; role?: string; method: string }, action: string, target?: AuditTarget, details?: Record<string, unknown>): Promise<void> {
    try {
      await this.repository.insert(this.entry(request, actor, action, target, details));
    } catch (error) {
      // The sign-in itself is done; say loudly that its trace is missing rather than fail it.
      this.logger.error({ err: error instanceof Error ? error.message : String(error), action, requestId: request.id }, 'audit log: entry not written');
    }
  }

  private entry(request: AdminRequest, actor: AdminActor | { name: string; role?: string; method: string }, action: string, target?: AuditTarget, details?: Record<string, unknown>): NewAuditEntry {
    return {
      actor: actor.name,
      role: actor.role,
      method: actor.method,
      action,
      targetType: target?.type,
      targetId: target?.id,
      targetName: target?.name,
      details,
      ip: this.addresses.where(request),
      userAgent: userAgent(request),
      requestId: request.id,
    };
  }

  list(query: AuditQuery): Promise<AuditEntry[]> {
    return this.repository.list(query);
  }
}
