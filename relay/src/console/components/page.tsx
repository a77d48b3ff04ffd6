import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ApiError } from '../api';
import type { Resource } from '../use-resource';

/** A console page: its title (in the tab too), a line on what it is for, and its main actions. */
export function Page({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: ComponentChildren;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Tandem console`;
  }, [title]);
  // A new page moves focus to its title, so keyboard and screen-reader users start at the top of it.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <>
      <header class="page-head">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {intro && <p class="lead">{intro}</p>}
        </div>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </>
  );
}

export function Loading({ what = 'Loading…' }: { what?: string }) {
  return (
    <p class="loading" aria-busy="true">
      {what}
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
    </div>
  );
}

export function ErrorNote({ error, retry }: { error: ApiError; retry?: () => void }) {
  return (
    <div class="error-note" role="alert">
      <p>{error.message}</p>
      {retry && (
        <button type="button" class="secondary outline small" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What a page shows of a resource: a spinner at first, the relay's words when it failed, else the data. */
export function Loaded<T>({ resource, children }: { resource: Resource<T>; children: (data: T) => ComponentChildren }) {
  const { data, error, reload } = resource;
  if (data === undefined) return error ? <ErrorNote error={error} retry={reload} /> : <Loading />;
  return (
    <>
      {error && <ErrorNote error={error} retry={reload} />}
      {children(data)}
    </>
  );
}
