import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError } from '../components/form-error';
import { failureOf, type FormFailure } from '../form-errors';
import type { SessionView } from '../types';

/**
 * Sign in: the admin token is sent once and exchanged for an HttpOnly session cookie; the page
 * keeps nothing (the field is cleared). With OIDC configured, "Sign in with SSO" goes to the
 * identity provider.
 */
export function SignInPage({ sso, notice, onSignedIn }: { sso: boolean; notice?: string; onSignedIn: (session: SessionView) => void }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      const session = await api<SessionView>('POST', '/admin/session', { token });
      setToken('');
      onSignedIn(session);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <div class="signin-card">
        <p class="brand big">
          <span class="logo" aria-hidden="true">R</span> Rosetta
        </p>
        <h1>Sign in to the dashboard</h1>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <form onSubmit={submit} noValidate>
          <div class="field">
            <label for="admin-token">Admin token</label>
            <input
              id="admin-token"
              name="admin-token"
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={token}
              aria-invalid={failure ? true : undefined}
              aria-describedby="admin-token-hint"
              onInput={(event) => setToken(event.currentTarget.value)}
            />
            <small class="hint" id="admin-token-hint">
              ADMIN_TOKEN, or the token the gateway printed on its first start. It is exchanged for a session and not kept by this browser.
            </small>
          </div>
          <FormError failure={failure} />
          <button type="submit" class="primary wide" disabled={busy || token.trim() === ''}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {sso && (
          <>
            <p class="or">
              <span>or</span>
            </p>
            <button type="button" class="secondary wide" onClick={() => location.assign('/admin/session/sso')}>
              Sign in with SSO
            </button>
          </>
        )}
      </div>
    </main>
  );
}
