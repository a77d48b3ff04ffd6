import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { useSignedIn } from './auth';
import { Loading } from './components/page';
import { ToastRegion } from './components/toasts';
import { Layout } from './layout';
import { AccountsPage } from './pages/accounts';
import { AgentsPage } from './pages/agents';
import { ApiKeysPage } from './pages/api-keys';
import { ChoosePasswordPage } from './pages/choose-password';
import { DevicesPage } from './pages/devices';
import { NotFoundPage } from './pages/not-found';
import { SecretsPage } from './pages/secrets';
import { SessionPage } from './pages/session';
import { SessionsPage } from './pages/sessions';
import { SettingsPage } from './pages/settings';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';
import { SkillsPage } from './pages/skills';
import { UsagePage } from './pages/usage';
import { matchPath, navigate, usePath } from './router';

interface Route {
  pattern: string;
  page: (params: Record<string, string>) => JSX.Element;
  adminOnly?: boolean;
}

const ROUTES: Route[] = [
  { pattern: '/console', page: () => <SessionsPage /> },
  { pattern: '/console/sessions', page: () => <SessionsPage /> },
  { pattern: '/console/sessions/:id', page: ({ id }) => <SessionPage id={id ?? ''} /> },
  { pattern: '/console/api-keys', page: () => <ApiKeysPage /> },
  { pattern: '/console/skills', page: () => <SkillsPage /> },
  { pattern: '/console/agents', page: () => <AgentsPage /> },
  { pattern: '/console/secrets', page: () => <SecretsPage /> },
  { pattern: '/console/devices', page: () => <DevicesPage /> },
  { pattern: '/console/usage', page: () => <UsagePage /> },
  { pattern: '/console/accounts', page: () => <AccountsPage />, adminOnly: true },
  { pattern: '/console/settings', page: () => <SettingsPage /> },
];

const SIGN_IN = '/console/sign-in';
const SIGN_UP = '/console/sign-up';
const PASSWORD = '/console/password';
const SIGNED_OUT_PAGES = new Set([SIGN_IN, SIGN_UP]);

/** Where the current signed-in state says this path belongs, or undefined when it may stay. */
function redirectFor(state: ReturnType<typeof useSignedIn>, path: string): string | undefined {
  if (state === undefined) return undefined;
  // The page asked for is kept as ?next=, to go on to once signed in and the password chosen.
  const next =
    path === '/console' || path === PASSWORD || SIGNED_OUT_PAGES.has(path) ? '' : `?next=${encodeURIComponent(path)}`;
  if (state === null) return SIGNED_OUT_PAGES.has(path) ? undefined : `${SIGN_IN}${next}`;
  if (state.account.must_change_password) {
    if (path === PASSWORD) return undefined;
    return `${PASSWORD}${next || (SIGNED_OUT_PAGES.has(path) ? location.search : '')}`;
  }
  if (SIGNED_OUT_PAGES.has(path) || path === PASSWORD) {
    const wanted = new URLSearchParams(location.search).get('next');
    return wanted?.startsWith('/console/') ? wanted : '/console';
  }
  return undefined;
}

export function App() {
  const state = useSignedIn();
  const path = usePath().replace(/\/+$/, '') || '/console';
  const redirect = redirectFor(state, path);
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  let content: JSX.Element;
  if (state === undefined || redirect) {
    content = (
      <div class="boot">
        <Loading what="Opening the console…" />
      </div>
    );
  } else if (state === null) {
    content = path === SIGN_UP ? <SignUpPage /> : <SignInPage />;
  } else if (state.account.must_change_password) {
    content = <ChoosePasswordPage account={state.account} />;
  } else {
    content = (
      <Layout account={state.account} path={path}>
        {pageFor(path, state.account.role === 'admin')}
      </Layout>
    );
  }
  return (
    <>
      {content}
      <ToastRegion />
    </>
  );
}

function pageFor(path: string, admin: boolean): JSX.Element {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.adminOnly && !admin) break;
    // Keyed by path: another session's page is a new page, not the same one with new props.
    return <route.page key={path} {...params} />;
  }
  return <NotFoundPage />;
}
