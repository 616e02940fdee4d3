import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get } from './api';

export interface Resource<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  /** Fetches again, keeping what is shown until the answer comes. */
  reload(): void;
}

/**
 * A GET of the admin API, fetched on mount and whenever `path` changes, optionally every
 * `refreshMs` (the usage page, left open on a second screen). A stale answer never overwrites
 * a newer one. `read` fetches the path (by default one GET; the usage page follows its pages).
 */
export function useResource<T>(path: string | null, refreshMs?: number, read: (path: string) => Promise<T> = get): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: path !== null });
  const generation = useRef(0);
  const load = useCallback(() => {
    if (path === null) return;
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    read(path).then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error: unknown) => mine === generation.current && setState((previous) => ({ data: previous.data, error: error instanceof ApiError ? error : new ApiError(0, String(error)), loading: false })),
    );
  }, [path, read]);
  useEffect(() => {
    setState({ loading: path !== null });
    load();
    if (!refreshMs) return undefined;
    const timer = setInterval(load, refreshMs);
    return () => clearInterval(timer);
  }, [load, refreshMs]);
  return { ...state, reload: load };
}
