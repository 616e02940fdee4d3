import type { AdminRole } from '@rosetta/auth';

/**
 * Who is calling the admin API: a script with the bearer ADMIN_TOKEN, or a dashboard session
 * (signed in with the token, or through single sign-on). Written to the audit log with each change.
 */
export interface AdminActor {
  /** "admin token", or the user's e-mail (else subject) from the identity provider. */
  name: string;
  role: AdminRole;
  /** `bearer`: the Authorization header; `token` / `oidc`: a dashboard session signed in that way. */
  method: 'bearer' | 'token' | 'oidc';
}

/** The members of an admin request the guard, the audit log and the session routes read. */
export interface AdminRequest {
  method: string;
  path?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string | string[]>;
  body?: unknown;
  id?: string;
  socket?: { remoteAddress?: string; encrypted?: boolean };
  adminActor?: AdminActor;
}

export const TOKEN_ACTOR = 'admin token';

function header(req: AdminRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function userAgent(req: AdminRequest): string | undefined {
  return header(req, 'user-agent')?.slice(0, 500);
}

export function requestHeader(req: AdminRequest, name: string): string | undefined {
  return header(req, name);
}
