import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { ThemeToggle } from './theme-toggle';

/** The frame of the pages before the console: sign in, sign up, choose a password. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ComponentChildren;
  children: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${title} · Tandem console`;
  }, [title]);
  return (
    <main class="auth">
      <div class="auth-theme">
        <ThemeToggle />
      </div>
      <article class="auth-card">
        <header class="auth-brand">
          <img src="/console/assets/icon.svg" alt="" width={36} height={36} />
          <span>
            <span class="brand-name">Tandem</span> <span class="brand-tag">console</span>
          </span>
        </header>
        <h1>{title}</h1>
        {intro && <p class="lead">{intro}</p>}
        {children}
      </article>
    </main>
  );
}
