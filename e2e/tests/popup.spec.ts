import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures';
import { connectExtension, connectionStatus, createLocalSession } from './local-helpers';

/** Set TANDEM_POPUP_SCREENSHOT=1 to refresh the README's picture of the popup. */
const SCREENSHOT = fileURLToPath(new URL('../../extension/docs/popup.png', import.meta.url));

test('signs in from the popup with email and password, turns the API on and shows the live connection', async ({
  context,
  extensionId,
  serviceWorker,
  relay,
  site,
}) => {
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 312, height: 420 });
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await expect(popup.getByText('Not connected')).toBeVisible();

  await popup.getByLabel('Relay URL').fill(relay.url);
  await popup.getByLabel('Email').fill(relay.email);
  await popup.getByLabel('Password').fill('wrong password');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('alert')).toContainText('Wrong email or password');

  await popup.getByLabel('Password').fill(relay.password);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // Exactly the relay's URL line: the status detail may still say "Connecting to <url>…" for a moment.
  await expect(popup.getByText(relay.url, { exact: true })).toBeVisible();
  // Connected as soon as signed in; the relay may not use the browser until API Enabled is on.
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('api_off');
  await expect(popup.getByRole('status')).toHaveText('Connected');
  await expect(popup.getByText('API Enabled is off')).toBeVisible();
  const refused = await createLocalSession(relay, `${site.url}/form.html`);
  expect(refused.status, JSON.stringify(refused.body)).toBe(400);
  expect(JSON.stringify(refused.body)).toMatch(/API Enabled/);

  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect(popup.getByRole('status')).toHaveText('Connected');
  await expect(popup.getByText(relay.email)).toBeVisible();

  const created = await createLocalSession(relay, `${site.url}/form.html`);
  expect(created.status).toBe(200);
  // Each running session by its page's title and site.
  await expect(popup.getByRole('listitem').filter({ hasText: 'Form' })).toContainText(new URL(site.url).host);
  if (process.env.TANDEM_POPUP_SCREENSHOT) {
    mkdirSync(fileURLToPath(new URL('.', `file://${SCREENSHOT}`)), { recursive: true });
    await popup.bringToFront();
    await popup.screenshot({ path: SCREENSHOT, fullPage: true });
  }

  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('api_off');
  await expect(popup.getByRole('status')).toHaveText('Connected');
  await popup.getByRole('button', { name: 'Sign out' }).click();
  await expect(popup.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(popup.getByRole('status')).toHaveText('Not connected');
});

test('signs in from the popup by pasting an API key', async ({ context, extensionId, serviceWorker, relay }) => {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.getByLabel('Relay URL').fill(relay.url);
  await popup.getByLabel('API key').fill(relay.key);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('connected');
});

test('Stop in the popup ends that session (the API then answers 404 "stopped in the browser"); Stop all ends the rest', async ({
  context,
  extensionId,
  serviceWorker,
  relay,
  site,
}) => {
  await connectExtension(relay, serviceWorker);
  const ids: string[] = [];
  for (const path of ['/form.html', '/index.html', '/login.html']) {
    const created = await createLocalSession(relay, `${site.url}${path}`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.push(created.body.session_id);
  }
  const [form, index, login] = ids as [string, string, string];
  const screenshot = (id: string) => relay.api<{ message?: string }>('GET', `/v1/web/screenshot/${id}`);
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await expect(popup.getByRole('listitem')).toHaveCount(3);

  await popup.getByRole('button', { name: 'Stop the session on Form' }).click();
  await expect.poll(async () => (await screenshot(form)).status).toBe(404);
  expect((await screenshot(form)).body.message).toMatch(/stopped in the browser/);
  expect((await screenshot(index)).status).toBe(200);
  await expect(popup.getByRole('listitem')).toHaveCount(2);

  await popup.getByRole('button', { name: 'Stop all' }).click();
  for (const id of [index, login]) {
    await expect.poll(async () => (await screenshot(id)).status).toBe(404);
    expect((await screenshot(id)).body.message).toMatch(/stopped in the browser/);
  }
  await expect(popup.getByText('None running')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Stop all' })).toBeHidden();
});

test('a sign-in to a relay that is not running says so and what to check', async ({ context, extensionId }) => {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  // Port 9 (discard) on loopback: nothing listens there in a test run.
  await popup.getByLabel('Relay URL').fill('http://127.0.0.1:9');
  await popup.getByLabel('API key').fill('tdm_not_checked');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('alert')).toContainText('cannot reach the relay at http://127.0.0.1:9: is it running?');
});

test('signs in from the popup with a one-time pairing code', async ({ context, extensionId, serviceWorker, relay }) => {
  const { code } = await relay.relay.services.store.pairingCodes.create(relay.accountId);
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.getByLabel('Relay URL').fill(relay.url);
  await popup.getByLabel('Pairing code').fill(code);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('api_off');
  await expect(popup.getByRole('status')).toHaveText('Connected');
  await expect(popup.getByText(relay.email)).toBeVisible();
});
