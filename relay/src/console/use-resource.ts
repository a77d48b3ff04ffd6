import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Loads again; the data shown stays until the answer comes. */
  reload(): Promise<void>;
}

/** Loads what a page shows, keeps the latest answer, and says why when it fails. */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[] = []): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const call = ++latest.current;
    setLoading(true);
    try {
      const value = await load();
      if (call !== latest.current) return;
      setData(value);
      setError(undefined);
    } catch (e) {
      if (call !== latest.current) return;
      setError(e instanceof ApiError ? e : new ApiError(0, String(e)));
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}

/** Calls `tick` every `ms` while the page is visible (and once on coming back to it). */
export function useVisiblePolling(tick: () => void, ms: number): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      timer = document.visibilityState === 'visible' ? setInterval(() => saved.current(), ms) : undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') saved.current();
      start();
    };
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [ms]);
}
