import type { Action } from '@tandem/shared';
import { expect, test } from '../fixtures';
import { connectExtension, createLocalSession, elementNamed, sessionOf, tabAt } from './local-helpers';

// The evaluated callbacks run in the extension's service worker.
declare const chrome: {
  storage: { local: { get(key: string): Promise<Record<string, unknown>>; set(items: object): Promise<void> } };
  runtime: { getManifest(): { permissions?: string[]; optional_permissions?: string[] } };
};

test.describe('trusted input (the popup switch, the debugger of the session tab)', () => {
  test('the Trusted input switch is off by default, persists, and the manifest carries the debugger permission', async ({
    context,
    extensionId,
    serviceWorker,
  }) => {
    const manifest = await serviceWorker.evaluate(() => chrome.runtime.getManifest());
    expect(manifest.permissions).toContain('debugger');
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html`);
    const trusted = popup.getByRole('switch', { name: 'Trusted input' });
    await expect(trusted).toBeEnabled();
    await expect(trusted).not.toBeChecked();
    await trusted.click();
    await expect
      .poll(() => serviceWorker.evaluate(() => chrome.storage.local.get('trustedInput')))
      .toEqual({ trustedInput: true });
    await popup.reload();
    await expect(trusted).toBeChecked();
    // Changed elsewhere (another popup, an admin script): the open popup follows storage.
    await serviceWorker.evaluate(() => chrome.storage.local.set({ trustedInput: false }));
    await expect(trusted).not.toBeChecked();
  });

  test('a click and keys whose handlers check isTrusted work only with Trusted input on', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/events.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;
    const tab = await tabAt(context, `${site.url}/events.html`);
    const driver = sessionOf(relay, id).driver;
    const button = await elementNamed(relay, id, 'Check input');
    const search = await elementNamed(relay, id, 'Search');
    const click = { action: 'click', index: button, double: false } as Action;

    // Default: the runtime's synthetic events (no debugger, no warning bar).
    expect((await driver.act(click)).code).toBe('ok');
    await expect(tab.locator('#trusted-result')).toHaveText('synthetic click');

    await serviceWorker.evaluate(() => chrome.storage.local.set({ trustedInput: true }));
    const trusted = await driver.act(click);
    // Worded as every other path words a click (the shared input policy); the page saw a trusted one.
    expect(trusted.message).toMatch(/^Clicked <button "Check input"> \[\d+\]\.$/);
    await expect(tab.locator('#trusted-result')).toHaveText('trusted click');
    const typed = await driver.act({ action: 'type', index: search, text: 'ab', clear: true, submit: false } as Action);
    expect(typed.code, typed.message).toBe('ok');
    const pressed = await driver.act({ action: 'press_key', key: 'c', modifiers: [], index: search } as Action);
    expect(pressed.code, pressed.message).toBe('ok');
    await expect(tab.locator('#keys-result')).toHaveText('trusted keys: abc');
    await expect(tab.locator('#keys')).toHaveValue('abc');

    // A password typed key by key is never repeated, as on every other path.
    await driver.navigate(`${site.url}/login.html`);
    const password = await elementNamed(relay, id, 'Password');
    const secret = await driver.act({
      action: 'type',
      index: password,
      text: 'correct-horse',
      clear: true,
      submit: false,
    } as Action);
    expect(secret).toMatchObject({ code: 'ok', message: 'Typed 13 characters into the password field.' });
    await driver.navigate(`${site.url}/events.html`);

    await serviceWorker.evaluate(() => chrome.storage.local.set({ trustedInput: false }));
    const again = { action: 'click', index: await elementNamed(relay, id, 'Check input'), double: false } as Action;
    expect((await driver.act(again)).message).not.toContain('trusted input');
    await expect(tab.locator('#trusted-result')).toHaveText('synthetic click');
  });
});
