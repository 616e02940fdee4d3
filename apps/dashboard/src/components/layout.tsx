import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { dateTime } from '../format';
import { href, navigate, PAGES, type PagePath } from '../router';
import type { SessionView } from '../types';

/** The frame: navigation (a side bar on a laptop, a menu at phone width), who is signed in, the page. */
export function Layout({
  session,
  page,
  onSignOut,
  onSignOutAll,
  children,
}: {
  session: SessionView;
  page: PagePath;
  onSignOut: () => void;
  /** Admins only: ends every session, after a second click to confirm. */
  onSignOutAll?: () => void;
  children: ComponentChildren;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirmAll, setConfirmAll] = useState(false);
  return (
    <div class="shell">
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={href('keys')} onClick={(event) => { event.preventDefault(); navigate('keys'); }}>
          <span class="logo" aria-hidden="true">R</span> Rosetta
        </a>
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <div class="who">
          <span class="who-name" title={session.expires_at ? `Session ends ${dateTime(session.expires_at)}` : undefined}>
            {session.name}
          </span>
          <span class={`role ${session.role}`}>{session.role === 'viewer' ? 'Viewer (read only)' : 'Admin'}</span>
          <button type="button" class="secondary small" onClick={onSignOut}>
            Sign out
          </button>
          {onSignOutAll && !confirmAll && (
            <button type="button" class="secondary small sign-out-all" onClick={() => setConfirmAll(true)}>
              Sign out all sessions
            </button>
          )}
          {onSignOutAll && confirmAll && (
            <>
              <button type="button" class="danger small sign-out-all" onClick={onSignOutAll}>
                Sign out everyone
              </button>
              <button type="button" class="secondary small sign-out-all" onClick={() => setConfirmAll(false)}>
                Cancel
              </button>
            </>
          )}
        </div>
      </header>
      <nav id="main-nav" class={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>
          {PAGES.map((item) => (
            <li key={item.path}>
              <a
                href={href(item.path)}
                aria-current={item.path === page ? 'page' : undefined}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                  event.preventDefault();
                  setMenuOpen(false);
                  navigate(item.path);
                }}
              >
                {item.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="content" class="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
