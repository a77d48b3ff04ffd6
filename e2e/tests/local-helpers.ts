import type { BrowserContext, Page, Worker } from '@playwright/test';
import type { TestRelay } from '../fixtures';
import { expect } from '../fixtures';

// The helpers run in Node; the evaluated callbacks run in the extension's service worker.
declare const chrome: {
  storage: {
    local: { set(items: Record<string, unknown>): Promise<void> };
    session: { get(key: string): Promise<Record<string, { status: string; detail: string } | undefined>> };
  };
};

/** The socket state the background worker publishes for the popup (storage.session `connection`). */
export async function connectionStatus(serviceWorker: Worker): Promise<string> {
  return serviceWorker.evaluate(
    async () => (await chrome.storage.session.get('connection')).connection?.status ?? 'signed_out',
  );
}

/** Signs the extension in with a device token issued through the API (the automation path) and turns the API on. */
export async function connectExtension(relay: TestRelay, serviceWorker: Worker): Promise<string> {
  const issued = await relay.api<{ token: string; device_id: string }>('POST', '/v1/extension/token', { name: 'e2e' });
  expect(issued.status).toBe(201);
  await serviceWorker.evaluate((items) => chrome.storage.local.set(items), {
    relayUrl: relay.url,
    deviceToken: issued.body.token,
    deviceId: issued.body.device_id,
    apiEnabled: true,
  });
  await expect.poll(() => connectionStatus(serviceWorker), { timeout: 10_000 }).toBe('connected');
  return issued.body.device_id;
}

export async function setApiEnabled(serviceWorker: Worker, enabled: boolean): Promise<void> {
  await serviceWorker.evaluate((on) => chrome.storage.local.set({ apiEnabled: on }), enabled);
}

/** The page in the extension's browser showing `url` (a session tab). */
export async function tabAt(context: BrowserContext, url: string): Promise<Page> {
  await expect.poll(() => context.pages().some((p) => p.url() === url)).toBe(true);
  const page = context.pages().find((p) => p.url() === url);
  if (!page) throw new Error(`no tab at ${url}`);
  return page;
}

/** Creates a local session through the HTTP API. */
export async function createLocalSession(relay: TestRelay, url: string) {
  return relay.api<{ session_id: string; url: string; message: string; statusCode?: number }>(
    'POST',
    '/v1/web/session',
    {
      url,
      local: true,
    },
  );
}

/** The account the fixture relay's API key belongs to. */
export function accountOf(relay: TestRelay): string {
  return relay.accountId;
}

/** The relay-side session (its driver tells local from remote). */
export function sessionOf(relay: TestRelay, sessionId: string) {
  return relay.relay.services.sessions.get(accountOf(relay), sessionId);
}

/** The element of a snapshot whose visible text or name is `name`; fails the test with the snapshot text. */
export async function elementNamed(relay: TestRelay, sessionId: string, name: string): Promise<number> {
  const snapshot = await sessionOf(relay, sessionId).driver.snapshot();
  const element = snapshot.elements.find((e) => e.text === name || e.name === name);
  if (!element) throw new Error(`no element named "${name}" in:\n${snapshot.text}`);
  return element.index;
}
