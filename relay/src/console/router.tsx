import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// Client-side routing with the History API: the relay answers the same page for every /console path.

const listeners = new Set<() => void>();

/** Goes to a console path without reloading; `replace` leaves no history entry (redirects). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

/** The current path; re-renders on navigate() and on the browser's back and forward buttons. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    addEventListener('popstate', update);
    update();
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** The `:name` parts of `pattern` found in `path`, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.replace(/\/+$/, '').split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = have[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  tabIndex?: number;
  'aria-label'?: string;
  'aria-current'?: 'page' | undefined;
  'aria-hidden'?: 'true';
}

/** An ordinary link (so it opens in a new tab with a modifier key) that routes in the page on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}
