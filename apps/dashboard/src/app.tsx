import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type ApiError, whenSignedOut } from './api';
import { Layout } from './components/layout';
import { ErrorNote, Loading } from './components/ui';
import { AlertsPage } from './pages/alerts';
import { AuditPage } from './pages/audit';
import { KeysPage } from './pages/keys';
import { PlansPage } from './pages/plans';
import { ProvidersPage } from './pages/providers';
import { RequestsPage } from './pages/requests';
import { RouterPage } from './pages/router-page';
import { SignInPage } from './pages/sign-in';
import { TeamsPage } from './pages/teams';
import { UsagePage } from './pages/usage';
import { usePage, type PagePath } from './router';
import type { SessionView } from './types';

const PAGE_VIEWS: Record<PagePath, (props: { canWrite: boolean; session: SessionView }) => preact.JSX.Element> = {
  keys: KeysPage,
  teams: TeamsPage,
  plans: PlansPage,
  usage: UsagePage,
  requests: RequestsPage,
  providers: ProvidersPage,
  router: RouterPage,
  alerts: AlertsPage,
  audit: AuditPage,
};

/** The page: who is signed in decides between the sign-in form and the dashboard. */
export function App() {
  const [session, setSession] = useState<SessionView>();
  const [failure, setFailure] = useState<ApiError>();
  const [notice, setNotice] = useState<string>();
  const page = usePage();

  const refresh = useCallback(() => {
    setFailure(undefined);
    api<SessionView>('GET', '/admin/session').then(setSession, (error: ApiError) => setFailure(error));
  }, []);

  useEffect(() => {
    // A single sign-on that failed comes back here with its reason in the address; show it once.
    const params = new URLSearchParams(location.search);
    const ssoError = params.get('sso_error');
    if (ssoError) {
      setNotice(ssoError);
      history.replaceState(null, '', location.pathname);
    }
    whenSignedOut(() => {
      setNotice('Your session has ended (signed out, or it expired): sign in again.');
      setSession((current) => (current ? { authenticated: false, sso: current.sso } : current));
    });
    refresh();
  }, [refresh]);

  useEffect(() => {
    const title = page.charAt(0).toUpperCase() + page.slice(1);
    document.title = session?.authenticated ? `${title === 'Audit' ? 'Audit log' : title} · Rosetta` : 'Sign in · Rosetta';
  }, [page, session]);

  if (failure) return <main class="center"><ErrorNote error={failure} retry={refresh} /></main>;
  if (!session) return <main class="center"><Loading what="your session" /></main>;
  if (!session.authenticated) {
    return (
      <SignInPage
        sso={session.sso}
        notice={notice}
        onSignedIn={(next) => {
          setNotice(undefined);
          setSession(next);
        }}
      />
    );
  }
  const View = PAGE_VIEWS[page];
  const signOut = (): void => {
    api('DELETE', '/admin/session').finally(() => {
      setNotice('You are signed out.');
      setSession({ authenticated: false, sso: session.sso });
    });
  };
  // Every session on every replica, this one too: the page ends up signed out either way.
  const signOutAll = (): void => {
    api<{ signed_out: number }>('DELETE', '/admin/sessions').then(
      ({ signed_out }) => {
        setNotice(`Signed out all sessions (${signed_out}), yours included.`);
        setSession({ authenticated: false, sso: session.sso });
      },
      (error: ApiError) => setFailure(error),
    );
  };
  return (
    <Layout session={session} page={page} onSignOut={signOut} onSignOutAll={session.role === 'admin' ? signOutAll : undefined}>
      <View canWrite={session.role === 'admin'} session={session} />
    </Layout>
  );
}
