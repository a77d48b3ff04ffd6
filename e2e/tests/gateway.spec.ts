import { request } from 'node:http';
import { expect, test } from '../fixtures';
import { connectionStatus } from './local-helpers';

// The spec runs in Node; the evaluated callbacks run in the extension's service worker.
declare const chrome: {
  storage: {
    local: { set(items: Record<string, unknown>): Promise<void> };
    session: { get(key: string): Promise<Record<string, { detail: string } | undefined>> };
  };
};

/** Sends a WebSocket upgrade request with the given Origin; resolves with the HTTP status the relay answered. */
function upgradeStatus(relayUrl: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${relayUrl}/v1/extension/ws`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        Origin: origin,
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on('error', reject);
    req.end();
  });
}

test('the gateway refuses a socket whose Origin is not the pinned extension', async ({ relay, extensionId }) => {
  expect(await upgradeStatus(relay.url, 'https://evil.example')).toBe(403);
  expect(await upgradeStatus(relay.url, 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toBe(403);
  expect(await upgradeStatus(relay.url, `chrome-extension://${extensionId}`)).toBe(101);
});

test('the gateway refuses a wrong device token and the popup says so', async ({ relay, serviceWorker }) => {
  await serviceWorker.evaluate((items) => chrome.storage.local.set(items), {
    relayUrl: relay.url,
    deviceToken: 'tdd_not_a_real_token',
    apiEnabled: true,
  });
  await expect.poll(() => connectionStatus(serviceWorker)).toBe('error');
  const detail = await serviceWorker.evaluate(
    async () => (await chrome.storage.session.get('connection')).connection?.detail,
  );
  expect(detail).toMatch(/invalid or revoked device token/);
});
