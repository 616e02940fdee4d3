import { requestHeader, type AdminRequest } from './admin-actor';

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/ (the dashboard and the admin API), and Secure with the `__Host-` prefix when the
 * browser reached us over https (directly or through a TLS-terminating proxy).
 */
export const SESSION_COOKIE = 'rosetta_session';
export const SECURE_SESSION_COOKIE = '__Host-rosetta_session';
/**
 * A single sign-on in progress. SameSite=Lax, not Strict: the identity provider sends the browser
 * back with a cross-site navigation, on which a Strict cookie would not come along.
 */
export const FLOW_COOKIE = 'rosetta_sso';

export interface HeaderWriter {
  getHeader(name: string): unknown;
  setHeader(name: string, value: string | string[]): unknown;
}

export function isHttps(req: AdminRequest): boolean {
  if (req.socket?.encrypted) return true;
  return requestHeader(req, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

export function readCookie(req: AdminRequest, name: string): string | undefined {
  const header = requestHeader(req, 'cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export function readSessionCookie(req: AdminRequest): string | undefined {
  return readCookie(req, SECURE_SESSION_COOKIE) ?? readCookie(req, SESSION_COOKIE);
}

function append(res: HeaderWriter, cookie: string): void {
  const existing = res.getHeader('set-cookie');
  const list = Array.isArray(existing) ? existing.map(String) : existing === undefined ? [] : [String(existing)];
  res.setHeader('set-cookie', [...list, cookie]);
}

export function setSessionCookie(req: AdminRequest, res: HeaderWriter, id: string, maxAgeMs: number): void {
  const secure = isHttps(req);
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  append(res, `${name}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(req: AdminRequest, res: HeaderWriter): void {
  const secure = isHttps(req);
  append(res, `${secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`);
}

export function setFlowCookie(req: AdminRequest, res: HeaderWriter, id: string | undefined, maxAgeMs: number): void {
  const secure = isHttps(req);
  append(res, `${FLOW_COOKIE}=${id ?? ''}; Path=/admin/session/sso; HttpOnly; SameSite=Lax; Max-Age=${id ? Math.floor(maxAgeMs / 1000) : 0}${secure ? '; Secure' : ''}`);
}
