import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, mergeMap, type Observable } from 'rxjs';
import type { AdminRequest } from '../session/admin-actor';
import { redactDetails } from './audit-entry';
import { AuditService } from './audit.service';

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
 * After an `@Audited` route succeeded: one audit entry with the caller (set by AdminGuard), the
 * object (its id and name from the answer, else the route parameter) and the body sent, secrets
 * removed. Refused calls change nothing and are not entries (failed sign-ins are, by the session routes).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const request = context.switchToHttp().getRequest<AdminRequest>();
    return next.handle().pipe(
      mergeMap((answer: unknown) => {
        const actor = request.adminActor;
        if (!actor) return from([answer]);
        const result = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
        const param = text(request.params?.[spec.param ?? 'id']);
        const target = {
          type: spec.type,
          id: text(result['id']) ?? text(result['slug']) ?? text(result['model_name']) ?? param,
          name: text(result['name']) ?? text(result['slug']) ?? text(result['model_name']) ?? param,
        };
        return from(this.audit.record(request, actor, spec.action, target, redactDetails(request.body)).then(() => answer));
      }),
    );
  }
}
