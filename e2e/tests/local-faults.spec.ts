import { createServer } from 'node:net';
import { expect, type TestRelay, test } from '../fixtures';
import { accountOf, connectExtension, connectionStatus, createLocalSession, tabAt } from './local-helpers';

// The evaluated callbacks run in the extension's service worker.
declare const chrome: { storage: { local: { set(items: Record<string, unknown>): Promise<void> } } };

type Body = { status?: string; message: string; url?: string; statusCode?: number };

const DISCONNECTED =
  'The Tandem extension disconnected while the command was in flight; it was not repeated. Check that the browser is running and retry.';

/** A step over raw fetch, for its headers too. */
async function step(relay: TestRelay, id: string, cmd: string) {
  const res = await fetch(`${relay.url}/v1/web/session/${id}`, {
    method: 'POST',
    headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
    body: JSON.stringify({ cmd, stream: false }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Body };
}

/** A loopback URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

test.describe('the extension dropping in the middle of a step', () => {
  test('the step fails with a retriable message that says so; after a short drop the same session goes on', async ({
    relay,
    serviceWorker,
    context,
    site,
  }) => {
    const deviceId = await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;
    const gateway = relay.relay.services.gateway;

    // The page never shows this text, so the extension is busy with the act command until the drop.
    const pending = step(relay, id, 'wait until "Never shown" appears');
    await expect.poll(() => gateway.commandsInFlight(deviceId), { timeout: 8_000 }).toContain('act');
    const droppedAt = Date.now();
    expect(gateway.dropConnection(deviceId)).toBe(true);
    const failed = await pending;
    expect(failed.status, JSON.stringify(failed.body)).toBe(503);
    expect(failed.retryAfter).toBe('2');
    expect(failed.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: DISCONNECTED });

    // The extension reconnects by itself within the grace period; the session and its tab are still there.
    const reconnected = () =>
      gateway.presence
        .forAccount(accountOf(relay))
        .some((d) => d.deviceId === deviceId && d.connected && d.since >= droppedAt);
    await expect.poll(reconnected, { timeout: 15_000 }).toBe(true);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([id]);
    const retried = await step(relay, id, 'type Ada into Name');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.url).toBe(`${site.url}/form.html`);
    const tab = await tabAt(context, `${site.url}/form.html`);
    await expect(tab.locator('input[name="name"]')).toHaveValue('Ada');
  });
});

test.describe('a drop longer than the grace period', () => {
  test.use({ relayEnv: { TANDEM_EXTENSION_GRACE_SECONDS: 10 } });

  test('holds the session through the grace period (calls meanwhile are retriable), then ends it and says why', async ({
    relay,
    serviceWorker,
    site,
  }) => {
    await connectExtension(relay, serviceWorker);
    const created = await createLocalSession(relay, `${site.url}/form.html`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id;

    // The relay becomes unreachable for the extension: its socket closes and every reconnect fails.
    const droppedAt = Date.now();
    await serviceWorker.evaluate((url) => chrome.storage.local.set({ relayUrl: url }), await deadUrl());
    await expect.poll(() => connectionStatus(serviceWorker)).toBe('connecting');

    const during = await step(relay, id, 'scroll down');
    expect(during.status, JSON.stringify(during.body)).toBe(503);
    expect(during.retryAfter).toBe('2');
    expect(during.body.message).toMatch(/The Tandem extension disconnected/);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([id]);

    await expect
      .poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids, { timeout: 20_000 })
      .toEqual([]);
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(10_000);
    const after = await step(relay, id, 'scroll down');
    expect(after.status).toBe(404);
    expect(after.body.message).toBe(
      `Session ${id} ended because the browser extension stayed disconnected longer than the grace period (check that the browser is running and API Enabled is on). Create a new session (POST /v1/web/session) and use its session_id.`,
    );
  });
});
