import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { AdminSessionService, Public, type AdminRole } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { AdminTokenService } from '../admin-token.service';
import { checkSameOrigin, invalidAdminTokenMessage } from '../admin.guard';
import { AuditService } from '../audit/audit.service';
import { requestHeader, TOKEN_ACTOR, userAgent, type AdminRequest } from './admin-actor';
import { dataPlaneView, type DataPlaneView } from './data-plane-address';
import { OidcService, SsoError } from './oidc.service';
import { clearSessionCookie, FLOW_COOKIE, isHttps, readCookie, readSessionCookie, setFlowCookie, setSessionCookie, type HeaderWriter } from './session-cookie';
import { AdminAuthThrottle } from './admin-auth-throttle.service';

interface Reply extends HeaderWriter {
  status(code: number): Reply;
  end(): void;
}

export interface SessionView {
  authenticated: boolean;
  /** Whether "Sign in with SSO" is offered (OIDC is configured). */
  sso: boolean;
  role?: AdminRole;
  name?: string;
  method?: string;
  expires_at?: string;
  /** Where clients send requests (signed in only): see `dataPlaneView`. */
  data_plane?: DataPlaneView;
}

const DASHBOARD = '/dashboard/';

/**
 * Dashboard sign-in: the admin token is exchanged once for a session cookie (the token itself
 * is never kept by the browser), or the identity provider vouches for the user (OIDC, code flow
 * with PKCE). Every sign-in, refusal and sign-out goes to the audit log.
 */
@Public()
@Controller('admin/session')
export class AdminSessionController {
  constructor(
    private readonly sessions: AdminSessionService,
    private readonly tokens: AdminTokenService,
    private readonly oidc: OidcService,
    private readonly audit: AuditService,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    private readonly http: HttpAdapterHost,
    private readonly throttle: AdminAuthThrottle,
  ) {}

  /** The data plane's listener is the application's own HTTP server (ADMIN_PORT is a second one). */
  private dataPlane(): DataPlaneView | undefined {
    const server = this.http.httpAdapter?.getHttpServer() as Server | undefined;
    return dataPlaneView(this.config, server?.address() ?? null);
  }

  /** Who is signed in (never a 401: the sign-in page asks this first). */
  @Get()
  async current(@Req() req: AdminRequest): Promise<SessionView> {
    const id = readSessionCookie(req);
    const session = id === undefined ? null : await this.sessions.find(id, this.tokens.fingerprint());
    if (!session) return { authenticated: false, sso: this.oidc.enabled };
    return { authenticated: true, sso: this.oidc.enabled, role: session.role, name: session.actor, method: session.method, expires_at: session.expiresAt.toISOString(), data_plane: this.dataPlane() };
  }

  /** `{token}`: the admin token, checked in constant time, for a session cookie. */
  @Post()
  @HttpCode(200)
  async signIn(@Req() req: AdminRequest, @Res({ passthrough: true }) res: Reply, @Body() body: unknown): Promise<SessionView> {
    checkSameOrigin(req);
    const address = await this.throttle.check(req, 'sign-ins');
    const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['token'] : undefined;
    if (typeof token !== 'string' || token.trim() === '') throw GatewayError.invalidRequest("Missing required field 'token': the admin token (ADMIN_TOKEN, or the one printed on first start)", 'token');
    if (!this.tokens.verify(token.trim())) {
      await this.throttle.failed(address);
      await this.audit.record(req, { name: 'unknown', method: 'token' }, 'session.sign_in_refused', undefined, { reason: 'invalid admin token' });
      throw new GatewayError('authentication_error', invalidAdminTokenMessage(token.trim()), { param: 'token' });
    }
    await this.throttle.succeeded(address);
    return this.open(req, res, 'admin', TOKEN_ACTOR, 'token');
  }

  @Delete()
  async signOut(@Req() req: AdminRequest, @Res({ passthrough: true }) res: Reply): Promise<{ authenticated: false }> {
    const id = readSessionCookie(req);
    const session = id === undefined ? null : await this.sessions.find(id, this.tokens.fingerprint());
    if (session) {
      checkSameOrigin(req);
      await this.sessions.end(id!);
      await this.audit.record(req, { name: session.actor, role: session.role, method: session.method }, 'session.sign_out');
    }
    clearSessionCookie(req, res);
    return { authenticated: false };
  }

  /** "Sign in with SSO": off to the identity provider, with a flow cookie to bind the way back to this browser. */
  @Get('sso')
  async startSso(@Req() req: AdminRequest, @Res() res: Reply): Promise<void> {
    if (!this.oidc.enabled) return redirect(res, failure('Single sign-on is not configured on this gateway: sign in with the admin token'));
    try {
      const { url, flow } = await this.oidc.begin(this.oidc.redirectUri(originOf(req)));
      setFlowCookie(req, res, await this.sessions.beginFlow(flow), 10 * 60_000);
      redirect(res, url);
    } catch (error) {
      redirect(res, failure(error instanceof SsoError ? error.message : 'Single sign-on could not start'));
    }
  }

  @Get('sso/callback')
  async finishSso(@Req() req: AdminRequest, @Res() res: Reply, @Query() query: Record<string, unknown>): Promise<void> {
    const flowId = readCookie(req, FLOW_COOKIE);
    setFlowCookie(req, res, undefined, 0);
    const flow = flowId === undefined ? null : await this.sessions.takeFlow(flowId);
    if (!flow) return redirect(res, failure('This sign-in link has expired or was opened in another browser: sign in with SSO again'));
    if (typeof query['error'] === 'string') {
      return redirect(res, failure(`The identity provider refused: ${String(query['error_description'] ?? query['error']).slice(0, 200)}`));
    }
    const params = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    try {
      const user = await this.oidc.finish(params, flow);
      if (!user.role) {
        await this.audit.record(req, { name: user.name, method: 'oidc' }, 'session.sign_in_refused', undefined, { reason: 'no role', groups: user.groups });
        const seen = user.groups.length ? user.groups.join(', ') : 'none';
        return redirect(res, failure(`${user.name} is in none of the groups allowed in (OIDC_ADMIN_GROUPS, OIDC_VIEWER_GROUPS); groups seen: ${seen.slice(0, 300)}`));
      }
      await this.open(req, res, user.role, user.name, 'oidc', { groups: user.groups, subject: user.subject });
      redirect(res, DASHBOARD);
    } catch (error) {
      redirect(res, failure(error instanceof SsoError ? error.message : 'Single sign-on failed'));
    }
  }

  private async open(req: AdminRequest, res: Reply, role: AdminRole, actor: string, method: 'token' | 'oidc', details: Record<string, unknown> = {}): Promise<SessionView> {
    const tokenFingerprint = method === 'token' ? this.tokens.fingerprint() : undefined;
    const { id, session } = await this.sessions.start({ role, actor, method, ip: this.throttle.where(req), userAgent: userAgent(req), tokenFingerprint });
    setSessionCookie(req, res, id, this.config.dashboard.sessionTtlMs);
    await this.audit.record(req, { name: actor, role, method }, 'session.sign_in', undefined, { ...details, expires_at: session.expiresAt.toISOString() });
    return { authenticated: true, sso: this.oidc.enabled, role, name: actor, method, expires_at: session.expiresAt.toISOString(), data_plane: this.dataPlane() };
  }
}

function originOf(req: AdminRequest): string {
  const host = requestHeader(req, 'host') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]{1,300}$/.test(host)) throw new SsoError('The request has an unusable Host header; set OIDC_REDIRECT_URI');
  return `${isHttps(req) ? 'https' : 'http'}://${host}`;
}

function failure(message: string): string {
  return `${DASHBOARD}?sso_error=${encodeURIComponent(message)}`;
}

function redirect(res: Reply, location: string): void {
  res.status(303);
  res.setHeader('location', location);
  res.setHeader('cache-control', 'no-store');
  res.end();
}
