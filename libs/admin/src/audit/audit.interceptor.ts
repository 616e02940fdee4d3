import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { inTransaction } from '@rosetta/persistence';
import { validatedFields } from '@rosetta/platform';
import { AsyncLocalStorage } from 'node:async_hooks';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import type { AdminRequest } from '../session/admin-actor';
import { redactDetails } from './audit-entry';
import { AuditService } from './audit.service';

/** The change an audited route made, as it validated it; set by the route, read when the entry is written. */
const changes = new AsyncLocalStorage<{ details?: Record<string, unknown> }>();

/**
 * What the audit entry of the current route records: the validated DTO (declared fields only,
 * secrets removed), never the raw body, which may carry anything beside them.
 */
export function auditChange(dto: object): void {
  const store = changes.getStore();
  if (store) store.details = redactDetails(validatedFields(dto));
}

const AUDIT = 'rosetta:audit';

interface AuditSpec {
  action: string;
  /** The kind of object changed: key, team, plan, provider, model. */
  type: string;
  /** The route parameter naming the object when the answer does not (`name`, `slug`). */
  param?: string;
}

/** Marks an admin route that changes something: it is written to the audit log when it succeeds. */
export const Audited = (action: string, type: string, param = 'id'): MethodDecorator => SetMetadata(AUDIT, { action, type, param } satisfies AuditSpec);

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.join('/');
  return undefined;
}

/**
 * An `@Audited` route runs in one transaction with its audit entry: the caller (set by AdminGuard),
 * the object (its id and name from the answer, else the route parameter) and the change as the
 * route validated it (`auditChange`). Either both commit or neither does: a change that cannot be
 * recorded is not made. Refused calls change nothing and are not entries (failed sign-ins are, by
 * the session routes).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
    private readonly dataSource: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const request = context.switchToHttp().getRequest<AdminRequest>();
    // next.handle() is called inside both scopes, so the route's queries join the transaction.
    return from(inTransaction(this.dataSource, () => changes.run({}, async () => {
      const answer: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      const actor = request.adminActor;
      if (!actor) return answer;
      const result = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
      const param = text(request.params?.[spec.param ?? 'id']);
      const target = {
        type: spec.type,
        id: text(result['id']) ?? text(result['slug']) ?? text(result['model_name']) ?? param,
        name: text(result['name']) ?? text(result['slug']) ?? text(result['model_name']) ?? param,
      };
      await this.audit.recordChange(request, actor, spec.action, target, changes.getStore()?.details);
      return answer;
    })));
  }
}
