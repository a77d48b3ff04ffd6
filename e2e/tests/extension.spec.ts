import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID, EXTENSION_PUBLIC_KEY } from '@tandem/shared';
import { expect, test } from '../fixtures';

// The spec runs in Node; the evaluated callbacks run in the extension's service worker.
declare const chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };

/** Chromium's id for an extension: sha256 of the DER public key, first 32 hex digits mapped 0-f → a-p. */
function idFromKey(base64Der: string): string {
  const hex = createHash('sha256').update(Buffer.from(base64Der, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

test('loads under the id pinned by manifest.key', async ({ extensionId }) => {
  expect(idFromKey(EXTENSION_PUBLIC_KEY)).toBe(EXTENSION_ID);
  expect(extensionId).toBe(EXTENSION_ID);
});

test('the background runs on webextension-polyfill (the WXT module aliases wxt/browser to it)', async ({
  extensionDir,
}) => {
  // The polyfill's own guard message is in every bundle that includes it.
  const marker = 'This script should only be loaded in a browser extension.';
  expect(readFileSync(join(extensionDir, 'background.js'), 'utf8')).toContain(marker);
});

test('popup shows the name, the relay URL, "Not connected" and API Enabled off by default', async ({
  context,
  extensionId,
}) => {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);

  await expect(popup.getByRole('heading', { name: 'Tandem' })).toBeVisible();
  await expect(popup.getByText('http://127.0.0.1:8787')).toBeVisible();
  await expect(popup.getByText('Not connected')).toBeVisible();
  const toggle = popup.getByRole('switch', { name: 'API Enabled' });
  await expect(toggle).toBeEnabled(); // enabled once the popup has read storage
  await expect(toggle).not.toBeChecked();
});

test('API Enabled toggle persists to chrome.storage.local and survives reloading the popup', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  const toggle = popup.getByRole('switch', { name: 'API Enabled' });
  await expect(toggle).toBeEnabled();
  expect(await serviceWorker.evaluate(() => chrome.storage.local.get('apiEnabled'))).toEqual({});

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect
    .poll(() => serviceWorker.evaluate(() => chrome.storage.local.get('apiEnabled')))
    .toEqual({ apiEnabled: true });

  await popup.reload();
  await expect(toggle).toBeEnabled();
  await expect(toggle).toBeChecked();
});

test('opens fixture site pages in the browser that has the extension loaded', async ({ context, site }) => {
  const page = await context.newPage();
  const response = await page.goto(`${site.url}/echo`);
  expect(response?.status()).toBe(200);
  expect(await response?.json()).toMatchObject({ method: 'GET', url: '/echo' });
});
