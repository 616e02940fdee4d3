import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AdminSessionService, preview, secretKind } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { AdminTokenService } from './admin-token.service';
import { requestHeader, TOKEN_ACTOR, type AdminActor, type AdminRequest } from './session/admin-actor';
import { readSessionCookie } from './session/session-cookie';
import { AuditService } from './audit/audit.service';
import { AdminAuthThrottle } from './session/admin-auth-throttle.service';

const ALLOW_VIEWER = 'rosetta:admin-allow-viewer';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The header the dashboard sends with every change; a page of another site cannot send it without CORS, which is never granted. */
export const DASHBOARD_HEADER = 'x-rosetta-dashboard';

/** A POST that changes nothing (explaining a route): viewers may call it too. */
export const AllowViewer = (): MethodDecorator => SetMetadata(ALLOW_VIEWER, true);

/**
 * The admin API's door: `Authorization: Bearer <ADMIN_TOKEN>` (scripts, the CLI), or a dashboard
 * session cookie. A viewer's session may read everything and change nothing (403). Changes made
 * with a cookie must carry the dashboard header and, when the browser names an Origin, come from
 * this very host: together with SameSite=Strict, no other site can make a signed-in browser act.
 * The caller is put on the request (`adminActor`) for the audit log.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly tokens: AdminTokenService,
    private readonly sessions: AdminSessionService,
    private readonly reflector: Reflector,
    private readonly throttle: AdminAuthThrottle,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const actor = await this.identify(request);
    request.adminActor = actor;
    if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
    if (actor.method !== 'bearer') checkSameOrigin(request);
    if (actor.role !== 'admin' && !this.reflector.get<boolean>(ALLOW_VIEWER, context.getHandler())) {
      throw new GatewayError('permission_error', `Signed in as ${actor.name} with the viewer role: viewers can look at everything but change nothing`);
    }
    return true;
  }

  private async identify(request: AdminRequest): Promise<AdminActor> {
    const authorization = requestHeader(request, 'authorization');
    if (authorization !== undefined) {
      const match = /^Bearer\s+(.+)$/i.exec(authorization);
      if (!match) throw new GatewayError('authentication_error', adminMissingMessage(`an Authorization header was received without the Bearer scheme (Authorization: ${preview(authorization.trim())})`));
      const token = match[1]!.trim();
      // Guessing the token is throttled and audited like guessing it at sign-in, across replicas.
      const address = await this.throttle.check(request, 'admin token attempts');
      if (!this.tokens.verify(token)) {
        await this.throttle.failed(address);
        await this.audit.record(request, { name: 'unknown', method: 'bearer' }, 'auth.bearer_refused', undefined, { reason: 'invalid admin token' });
        throw new GatewayError('authentication_error', invalidAdminTokenMessage(token));
      }
      return { name: TOKEN_ACTOR, role: 'admin', method: 'bearer' };
    }
    const id = readSessionCookie(request);
    if (id === undefined) {
      const apiKeyHeader = requestHeader(request, 'x-api-key') !== undefined;
      throw new GatewayError('authentication_error', adminMissingMessage(apiKeyHeader ? 'an x-api-key header was received, which is where data-plane routes take a gateway API key' : undefined));
    }
    const session = await this.sessions.find(id, this.tokens.fingerprint());
    if (!session) throw new GatewayError('authentication_error', 'Your dashboard session has ended (signed out or expired): sign in again');
    return { name: session.actor, role: session.role, method: session.method };
  }
}

/** A change made with a session cookie: the dashboard header, and an Origin (when sent) naming this host. */
export function checkSameOrigin(request: AdminRequest): void {
  if (requestHeader(request, DASHBOARD_HEADER) === undefined) {
    throw new GatewayError('permission_error', `Refused: a change made with a dashboard session must carry the ${DASHBOARD_HEADER} header (cross-site request protection)`);
  }
  const origin = requestHeader(request, 'origin');
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host.toLowerCase() !== (requestHeader(request, 'host') ?? '').toLowerCase()) {
    throw new GatewayError('permission_error', `Refused: the request comes from another site (${origin.slice(0, 100)})`);
  }
}

const ADMIN_CREDENTIALS = 'the admin API takes the admin token (ADMIN_TOKEN) as Authorization: Bearer <ADMIN_TOKEN>, or a dashboard session (sign in at /dashboard)';

/** No admin credential: what came instead, if anything, and what the admin API takes. */
function adminMissingMessage(received: string | undefined): string {
  return received ? `Missing admin token: ${received}; ${ADMIN_CREDENTIALS}` : `Missing admin token: ${ADMIN_CREDENTIALS}`;
}

/**
 * A refused token (checked in constant time before this, and counted by the throttle): a gateway
 * API key is named as one, from its public prefix; anything else is only "invalid".
 */
export function invalidAdminTokenMessage(token: string): string {
  if (secretKind(token)?.kind !== 'api-key') return 'Invalid admin token';
  return `Invalid admin token: this is a gateway API key (rsk_…), for the data-plane routes; ${ADMIN_CREDENTIALS}`;
}
