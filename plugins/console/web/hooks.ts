/** Small hooks the views share: loading data, and the hash route. */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  reload(): void;
}

/**
 * Runs `load` now and whenever `deps` change or `reload()` is called; a load that arrives in
 * parts hands each part to `progress` (shown while `loading` stays true).
 */
export function useLoad<T>(
  load: (progress: (partial: T) => void) => Promise<T>,
  deps: readonly unknown[],
): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load((partial) => live && setData(partial)).then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof Error ? e.message : String(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data, error, loading, reload };
}

/** The hash route (`#/jobs/123` → `['jobs', '123']`) and its query. */
export interface Route {
  readonly parts: readonly string[];
  readonly query: URLSearchParams;
}

function currentRoute(): Route {
  const h = location.hash.replace(/^#\/?/, '');
  const [path = '', q = ''] = h.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(q) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const on = () => setRoute(currentRoute());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function go(path: string): void {
  location.hash = `#/${path}`;
}
