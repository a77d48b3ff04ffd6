import type { Action } from '@tandem/shared';
import { expect, type TestRelay, test } from '../fixtures';

// The evaluated callbacks run in the extension's service worker.
declare const chrome: {
  tabGroups: { query(q: object): Promise<{ title?: string }[]> };
  downloads: { search(q: object): Promise<{ url: string; referrer: string; state: string }[]> };
};

import {
  connectExtension,
  connectionStatus,
  createLocalSession,
  elementNamed,
  sessionOf,
  setApiEnabled,
  tabAt,
} from './local-helpers';

test.describe('local mode', () => {
  test('a local session opens a tab in the extension browser; snapshot, act and screenshot run there', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.url).toBe(`${site.url}/form.html`);
    expect(created.body.message).toContain('Form');
    const tab = await tabAt(context, `${site.url}/form.html`);

    const session = relay.relay.services.sessions.get(accountOf(relay), created.body.session_id);
    expect(session.driver.kind).toBe('extension');
    const groups = await serviceWorker.evaluate(() => chrome.tabGroups.query({}));
    expect(groups.map((g) => g.title)).toContain(`Tandem ${created.body.session_id.slice(-6)}`);
    const snapshot = await session.driver.snapshot();
    const name = snapshot.elements.find((e) => e.attributes.name === 'name');
    expect(name, snapshot.text).toBeDefined();
    const typed = await session.driver.act({
      action: 'type',
      index: name!.index,
      text: 'Ada',
      clear: true,
      submit: false,
    } as Action);
    expect(typed.code).toBe('ok');
    await expect(tab.locator('input[name="name"]')).toHaveValue('Ada');

    const send = snapshot.elements.find((e) => e.tag === 'button');
    const clicked = await session.driver.act({ action: 'click', index: send!.index, double: false } as Action);
    expect(clicked.code).toBe('navigation');
    expect(session.driver.url()).toContain('/echo?name=Ada');
    // The session owns one tab; switch_tab never reaches the user's other tabs.
    expect(await session.driver.act({ action: 'switch_tab', tab: 0 } as Action)).toMatchObject({ code: 'ok' });
    const other = await session.driver.act({ action: 'switch_tab', tab: 1 } as Action);
    expect(other).toMatchObject({ code: 'unsupported', message: expect.stringMatching(/its one tab \[0\]/) });

    const shot = await relay.api<{ screenshot: string }>('GET', `/v1/web/screenshot/${created.body.session_id}`);
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    const png = Buffer.from(await (await fetch(shot.body.screenshot)).arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    const closed = await relay.api('DELETE', `/v1/web/session/${created.body.session_id}`);
    expect(closed.status).toBe(200);
    await expect.poll(() => context.pages().some((p) => p.url().includes('/echo?name=Ada'))).toBe(false);
  });

  test("a download the session tab starts is cancelled and erased; one in the user's own tab is left alone", async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/events.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { driver } = sessionOf(relay, created.body.session_id);
    const index = await elementNamed(relay, created.body.session_id, 'Download report');
    const events = [...(await driver.act({ action: 'click', index, double: false } as Action)).events];
    await expect
      .poll(async () => {
        events.push(...(await driver.act({ action: 'wait', ms: 100 } as Action)).events);
        return events.map((e) => e.kind);
      })
      .toContain('download_refused');
    const downloads = () => serviceWorker.evaluate(() => chrome.downloads.search({}));
    expect(await downloads()).toEqual([]);

    // The user's own tab, on another page of the same site: its download is the user's business.
    const mine = await context.newPage();
    await mine.goto(`${site.url}/events.html?tab=mine`);
    const saved = mine.waitForEvent('download');
    await mine.getByText('Download report').click();
    await (await saved).path();
    await expect.poll(async () => (await downloads()).map((d) => d.state)).toEqual(['complete']);
    expect((await driver.act({ action: 'wait', ms: 100 } as Action)).events).toEqual([]);
  });

  test("the account's guardrails hold in the user's browser: a blocked host is refused on create, and left at once after a click", async ({
    relay,
    serviceWorker,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const store = relay.relay.services.store;
    await store.guardrails.set(accountOf(relay), { blockedHosts: ['localhost'], allowedHosts: [] });
    try {
      const elsewhere = site.url.replace('127.0.0.1', 'localhost');
      const refused = await createLocalSession(relay, `${elsewhere}/form.html`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.message).toMatch(/localhost is blocked by this account's guardrails/);

      const start = `${site.url}/link?href=${encodeURIComponent(`${elsewhere}/form.html`)}`;
      const created = await createLocalSession(relay, start);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { driver } = sessionOf(relay, created.body.session_id);
      const index = await elementNamed(relay, created.body.session_id, 'Follow the link');
      const clicked = await driver.act({ action: 'click', index, double: false } as Action);
      expect(clicked.code, clicked.message).toBe('invalid_target');
      expect(clicked.message).toMatch(
        /It led to http:\/\/localhost:\d+\/form\.html, which was not kept open: localhost is blocked/,
      );
      expect(driver.url()).toBe(start);
    } finally {
      await store.guardrails.set(accountOf(relay), { blockedHosts: [], allowedHosts: [] });
    }
  });

  test('two local sessions run at once in two tabs', async ({ relay, serviceWorker, context, site }) => {
    await connectExtension(relay, serviceWorker);
    const [a, b] = await Promise.all([
      createLocalSession(relay, `${site.url}/form.html`),
      createLocalSession(relay, `${site.url}/index.html`),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(a.body.session_id).not.toBe(b.body.session_id);
    await tabAt(context, `${site.url}/form.html`);
    await tabAt(context, `${site.url}/index.html`);
    const [shotA, shotB] = await Promise.all([
      relay.api('GET', `/v1/web/screenshot/${a.body.session_id}`),
      relay.api('GET', `/v1/web/screenshot/${b.body.session_id}`),
    ]);
    expect(shotA.status).toBe(200);
    expect(shotB.status).toBe(200);
    const list = await relay.api<{ session_ids: string[] }>('GET', '/v1/web/sessions');
    expect(list.body.session_ids).toEqual(expect.arrayContaining([a.body.session_id, b.body.session_id]));
  });

  test('restricted pages are refused with restricted_page', async ({ relay, serviceWorker }) => {
    await connectExtension(relay, serviceWorker);
    const store = await createLocalSession(relay, 'https://chromewebstore.google.com/category/extensions');
    expect(store.status).toBe(400);
    expect(store.body.message).toMatch(/is a restricted page: the Chrome Web Store/);
    const browserPage = await createLocalSession(relay, 'chrome://settings');
    expect(browserPage.status).toBe(400);
    expect(browserPage.body.message).toMatch(
      /^chrome:\/\/settings is a restricted page: chrome:\/\/ pages belong to the browser/,
    );
    const extensionPage = await createLocalSession(
      relay,
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/popup.html',
    );
    expect(extensionPage.status).toBe(400);
    expect(extensionPage.body.message).toMatch(/is a restricted page: other extensions' pages are off limits/);
  });

  test('a link to the Web Store is refused with restricted_page before the tab leaves the page', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const url = `${site.url}/local/webstore-link.html`;
    const created = await createLocalSession(relay, url);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;
    const tab = await tabAt(context, url);
    const driver = sessionOf(relay, id).driver;
    const link = await elementNamed(relay, id, 'Open the Web Store listing');
    await expect(driver.act({ action: 'click', index: link, double: false } as Action)).rejects.toMatchObject({
      code: 'restricted_page',
      message: expect.stringMatching(/chromewebstore\.google\.com.* is a restricted page: the Chrome Web Store/),
    });
    // Refused before the click: no navigation started, so no network was needed.
    expect(tab.url()).toBe(url);
    expect(driver.url()).toBe(url);
    expect((await driver.snapshot()).text).toContain('Links out');
  });

  test('navigate, back and forward move the session tab through its history', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const first = `${site.url}/form.html`;
    const second = `${site.url}/table.html`;
    const created = await createLocalSession(relay, first);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const driver = sessionOf(relay, created.body.session_id).driver;
    expect(driver.kind).toBe('extension');
    // A new tab has nowhere to go back to: nothing happens, and the driver says so.
    expect(await driver.back()).toBe(false);
    expect(driver.url()).toBe(first);

    await driver.navigate(second);
    expect(driver.url()).toBe(second);
    const tab = await tabAt(context, second);
    expect(await driver.back()).toBe(true);
    expect(driver.url()).toBe(first);
    await expect.poll(() => tab.url()).toBe(first);
    expect(await driver.forward()).toBe(true);
    expect(driver.url()).toBe(second);
    expect(await driver.forward()).toBe(false);
    await expect.poll(() => tab.url()).toBe(second);
    expect(await driver.title()).toBe('Product table');
  });

  test('an error page is reported with its HTTP status: on create, after navigate, after a click', async ({
    relay,
    serviceWorker,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/no-such-page.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.message).toMatch(/The server answered HTTP 404 Not Found\.$/);
    const driver = sessionOf(relay, created.body.session_id).driver;
    expect(driver.httpStatus()).toBe(404);

    const opened = await driver.act({ action: 'navigate', url: `${site.url}/errors.html` } as Action);
    expect(opened.message).not.toMatch(/HTTP/);
    expect(driver.httpStatus()).toBe(200);
    const link = (await driver.snapshot()).elements.find((e) => e.text === 'Server error');
    expect(link).toBeDefined();
    const clicked = await driver.act({ action: 'click', index: link!.index, double: false } as Action);
    expect(clicked).toMatchObject({
      code: 'navigation',
      message: expect.stringMatching(/status\?code=500\. The server answered HTTP 500 Internal Server Error\.$/),
    });
    expect(driver.httpStatus()).toBe(500);
  });

  test('five screenshots at once across two sessions all succeed, each of its own tab', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const red = await createLocalSession(relay, `${site.url}/local/red.html`);
    const blue = await createLocalSession(relay, `${site.url}/local/blue.html`);
    expect(red.status, JSON.stringify(red.body)).toBe(200);
    expect(blue.status, JSON.stringify(blue.body)).toBe(200);
    const order = [red, blue, red, blue, red].map((s) => s.body.session_id);
    // All at once: more than captureVisibleTab's 2 per second, and the two tabs must take turns in front.
    const shots = await Promise.all(
      order.map((id) => relay.api<{ screenshot: string }>('GET', `/v1/web/screenshot/${id}`)),
    );
    for (const shot of shots) expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    const pngs = await Promise.all(
      shots.map(async (s) => Buffer.from(await (await fetch(s.body.screenshot)).arrayBuffer()).toString('base64')),
    );
    const decoder = await context.newPage();
    const colours = await decoder.evaluate(async (images) => {
      const canvas = new OffscreenCanvas(1, 1);
      const ctx = canvas.getContext('2d');
      const out: string[] = [];
      for (const b64 of images) {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        ctx?.drawImage(bitmap, -Math.floor(bitmap.width / 2), -Math.floor(bitmap.height / 2));
        const [r, g, b] = ctx?.getImageData(0, 0, 1, 1).data ?? [];
        out.push(`${r},${g},${b}`);
      }
      return out;
    }, pngs);
    expect(colours).toEqual(['255,0,0', '0,0,255', '255,0,0', '0,0,255', '255,0,0']);
  });

  test('closing the tab in the browser ends the session: later calls get 404 "closed in the browser"', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status).toBe(200);
    const tab = await tabAt(context, `${site.url}/form.html`);
    await tab.close();
    await expect
      .poll(async () => (await relay.api('GET', `/v1/web/screenshot/${created.body.session_id}`)).status)
      .toBe(404);
    const later = await relay.api('GET', `/v1/web/screenshot/${created.body.session_id}`);
    expect(later.body.message).toMatch(/closed in the browser/);
  });

  test('without a connected extension, or with API Enabled off, local: true is a 400 saying which', async ({
    relay,
    serviceWorker,
    site,
  }) => {
    const none = await createLocalSession(relay, `${site.url}/form.html`);
    expect(none.status, JSON.stringify(none.body)).toBe(400);
    expect(none.body.message).toMatch(/none is/);

    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    await setApiEnabled(serviceWorker, false);
    await expect.poll(() => connectionStatus(serviceWorker)).toBe('api_off');
    const off = await createLocalSession(relay, `${site.url}/form.html`);
    expect(off.status, JSON.stringify(off.body)).toBe(400);
    expect(off.body.message).toMatch(/API Enabled/);
    // The running session's next call fails with a clear message rather than hanging.
    const step = await relay.api('GET', `/v1/web/screenshot/${created.body.session_id}`);
    expect(step.status, JSON.stringify(step.body)).toBe(400);
    expect(step.body.message).toMatch(/API Enabled was turned off/);

    // Turned on again within the grace period: the session continues.
    await setApiEnabled(serviceWorker, true);
    await expect.poll(() => connectionStatus(serviceWorker)).toBe('connected');
    const again = await relay.api('GET', `/v1/web/screenshot/${created.body.session_id}`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  test('the extension reconnects by itself when the relay restarts', async ({ relay, serviceWorker, site }) => {
    const deviceId = await connectExtension(relay, serviceWorker);
    await relay.restart();
    // Asked of the new relay: the extension's own status can still read "connected" from before the
    // restart until it notices the closed socket.
    const connected = () =>
      relay.relay.services.gateway.presence
        .forAccount(accountOf(relay))
        .some((d) => d.deviceId === deviceId && d.connected);
    await expect.poll(connected, { timeout: 15_000 }).toBe(true);
    expect(await connectionStatus(serviceWorker)).toBe('connected');
    const created = await createLocalSession(relay, `${site.url}/index.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });
});

function accountOf(relay: TestRelay): string {
  return relay.accountId;
}
