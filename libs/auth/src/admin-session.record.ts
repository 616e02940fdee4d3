/** What a dashboard user may do: an admin changes things, a viewer only looks. */
export type AdminRole = 'admin' | 'viewer';

/** How the user signed in: with the admin token, or through the OIDC provider. */
export type SignInMethod = 'token' | 'oidc';

/** A signed-in dashboard session as the gateway sees it (the id itself is never stored). */
export interface AdminSession {
  idHash: string;
  role: AdminRole;
  /** Who: "admin token", or the user's e-mail (else subject) from the identity provider. */
  actor: string;
  method: SignInMethod;
  createdAt: Date;
  expiresAt: Date;
}

export interface NewAdminSession {
  role: AdminRole;
  actor: string;
  method: SignInMethod;
  ip?: string;
  userAgent?: string;
  /** A token session: the fingerprint of the admin token it was opened with (AdminTokenService.fingerprint). */
  tokenFingerprint?: string;
}

/** A single sign-on in progress: what the callback needs to finish it (PKCE verifier, state, nonce). */
export interface LoginFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}
