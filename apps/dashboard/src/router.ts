import { useEffect, useState } from 'preact/hooks';

/** The dashboard's pages, each at /dashboard/<path>; the first is the landing page. */
export const PAGES = [
  { path: 'keys', title: 'Keys' },
  { path: 'teams', title: 'Teams' },
  { path: 'plans', title: 'Plans' },
  { path: 'usage', title: 'Usage' },
  { path: 'requests', title: 'Requests' },
  { path: 'providers', title: 'Providers' },
  { path: 'router', title: 'Router' },
  { path: 'alerts', title: 'Alerts' },
  { path: 'audit', title: 'Audit log' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];

const BASE = '/dashboard/';

function current(): PagePath {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length).split('/')[0] : '';
  return PAGES.find((page) => page.path === rest)?.path ?? 'keys';
}

export function href(path: PagePath): string {
  return `${BASE}${path}`;
}

/** Moves to a page without reloading (the links are real links: a new tab works too). */
export function navigate(path: PagePath): void {
  if (current() === path && location.search === '') return;
  history.pushState(null, '', href(path));
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePage(): PagePath {
  const [page, setPage] = useState(current);
  useEffect(() => {
    const update = (): void => setPage(current());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return page;
}
