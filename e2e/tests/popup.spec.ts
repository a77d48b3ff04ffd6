import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures';
import { connectionStatus, createLocalSession } from './local-helpers';

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
  await expect(popup.getByText(relay.url)).toBeVisible();
  expect(await connectionStatus(serviceWorker)).toBe('api_off');

  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect(popup.getByRole('status')).toHaveText('Connected');
  await expect(popup.getByText(relay.email)).toBeVisible();

  const created = await createLocalSession(relay, `${site.url}/form.html`);
  expect(created.status).toBe(200);
  await expect(popup.getByText(`${site.url}/form.html`)).toBeVisible();
  if (process.env.TANDEM_POPUP_SCREENSHOT) {
    mkdirSync(fileURLToPath(new URL('.', `file://${SCREENSHOT}`)), { recursive: true });
    await popup.bringToFront();
    await popup.screenshot({ path: SCREENSHOT, fullPage: true });
  }

  await popup.getByRole('switch', { name: 'API Enabled' }).click();
  await expect(popup.getByRole('status')).toHaveText('Not connected');
  await popup.getByRole('button', { name: 'Sign out' }).click();
  await expect(popup.getByRole('button', { name: 'Sign in' })).toBeVisible();
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
