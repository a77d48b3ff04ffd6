import type { AccountInfo } from '@tandem/shared';
import type { ComponentChildren } from 'preact';
import { signOut } from './auth';
import { ThemeToggle } from './components/theme-toggle';
import { Link } from './router';

interface NavItem {
  href: string;
  label: string;
  adminOnly?: boolean;
}

const NAV: NavItem[] = [
  { href: '/console', label: 'Sessions' },
  { href: '/console/api-keys', label: 'API keys' },
  { href: '/console/skills', label: 'Skills' },
  { href: '/console/agents', label: 'Agents' },
  { href: '/console/secrets', label: 'Secrets' },
  { href: '/console/devices', label: 'Devices' },
  { href: '/console/usage', label: 'Usage' },
  { href: '/console/accounts', label: 'Accounts', adminOnly: true },
  { href: '/console/settings', label: 'Your account' },
];

function isCurrent(href: string, path: string): boolean {
  if (href === '/console') return path === '/console' || path.startsWith('/console/sessions');
  return path === href || path.startsWith(`${href}/`);
}

/** The frame of every signed-in page: product name, who is signed in, the theme, and the pages. */
export function Layout({
  account,
  path,
  children,
}: {
  account: AccountInfo;
  path: string;
  children: ComponentChildren;
}) {
  const items = NAV.filter((item) => !item.adminOnly || account.role === 'admin');
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <header class="topbar">
        {/* Its name is the text it shows (WCAG 2.5.3: speech users say what they see). */}
        <Link href="/console" class="brand">
          <img src="/console/assets/icon.svg" alt="" width={28} height={28} />
          <span class="brand-name">Tandem</span> <span class="brand-tag">console</span>
        </Link>
        <div class="topbar-end">
          <ThemeToggle />
          <span class="who" title={`Signed in as ${account.email} (${account.role})`}>
            {account.email}
          </span>
          <button type="button" class="secondary outline small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav class="sidenav" aria-label="Console pages">
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={isCurrent(item.href, path) ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="content">
        {children}
      </main>
    </div>
  );
}
