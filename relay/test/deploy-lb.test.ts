// The deploy/ topology without Docker: deploy/nginx.conf (real nginx) in front of two relays on one Redis,
// one Postgres and one S3-compatible bucket, all on loopback. A client that only knows the load balancer
// gets one service: its API key header gets through, streams arrive as they happen, the extension's socket
// is upgraded, and screenshot URLs on the balancer's address work whichever relay answers.
import type { TimelineChunk } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from './agent-support';
import { type ClusterBed, startClusterBed } from './cluster-support';
import { FakeExtension } from './fake-extension';
import { type Nginx, startNginx } from './nginx';
import { type S3Server, startS3Server } from './s3-server';
import { closedPort, TEST_KEY } from './support';

let bed: ClusterBed;
let s3: S3Server;
let lb: Nginx;

beforeAll(async () => {
  [bed, s3] = await Promise.all([startClusterBed(), startS3Server()]);
  await s3.createBucket('tandem');
  // The relays hand out URLs on the balancer's address, so its port is chosen first.
  const lbPort = await closedPort();
  for (const id of ['r1', 'r2']) {
    await bed.node(id, { TANDEM_S3_URL: s3.urlFor('tandem'), TANDEM_PUBLIC_URL: `http://127.0.0.1:${lbPort}` });
  }
  lb = await startNginx(
    bed.relays.map((relay) => new URL(relay.url).host),
    lbPort,
  );
}, 120_000);
afterAll(async () => {
  await lb?.stop();
  await bed?.close();
  await s3?.close();
});

const api = (method: string, path: string, body?: unknown, key: string | null = TEST_KEY) =>
  fetch(`${lb.url}${path}`, {
    method,
    headers: { ...(key ? { X_SERVICE_API_KEY: key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe('deploy/nginx.conf in front of two relays', () => {
  it('lets X_SERVICE_API_KEY through and spreads requests over both relays', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await api('GET', '/v1/web/sessions');
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect((await api('GET', '/v1/web/sessions', undefined, null)).status).toBe(401);
    expect((await api('GET', '/healthz', undefined, null)).status).toBe(200);
    const upstreams = new Set([...lb.accessLog().matchAll(/ (127\.0\.0\.1:\d+)$/gm)].map((m) => m[1]));
    expect([...upstreams].sort()).toEqual(bed.relays.map((relay) => new URL(relay.url).host).sort());
  });

  it("hands out screenshot URLs on the balancer's address that work whichever relay serves them", async () => {
    const created = await api('POST', '/v1/web/session', {
      url: `${bed.site.url}/form.html`,
      include_screenshot: true,
    });
    const body = (await created.json()) as { session_id: string; screenshot: string };
    expect(created.status, JSON.stringify(body)).toBe(200);
    expect(body.screenshot).toMatch(new RegExp(`^${lb.url}/v1/web/screenshots/\\w{22}\\.png$`));
    for (let i = 0; i < 4; i++) {
      const image = await fetch(body.screenshot);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      await image.arrayBuffer();
    }
    // The balancer's log shows a screenshot's token by its first characters only.
    const token = /\/(\w{22})\.png$/.exec(body.screenshot)?.[1] ?? '';
    expect(lb.accessLog()).toContain(`/v1/web/screenshots/${token.slice(0, 4)}...`);
    expect(lb.accessLog()).not.toContain(token);
    expect((await api('DELETE', `/v1/web/session/${body.session_id}`)).status).toBe(200);
  });

  it('streams a live timeline through the balancer as each step happens, not when the stream ends', async () => {
    const created = await api('POST', '/v1/web/session', { url: `${bed.site.url}/form.html` });
    const id = ((await created.json()) as { session_id: string }).session_id;
    const timeline = await fetch(`${lb.url}/v1/console/sessions/${id}/steps/live`, {
      headers: { X_SERVICE_API_KEY: TEST_KEY },
    });
    expect(timeline.headers.get('content-type')).toMatch(/text\/event-stream/);
    const seen: TimelineChunk[] = [];
    const ending = readStream(timeline, (data) => {
      if (data !== '[DONE]') seen.push(JSON.parse(data));
    });
    expect((await api('POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false })).status).toBe(200);
    // The step arrives while the stream is still open: nothing holds it back.
    await expect.poll(() => seen.map((chunk) => chunk.type), { timeout: 10_000 }).toEqual(['step']);
    expect((await api('DELETE', `/v1/web/session/${id}`)).status).toBe(200);
    await ending;
    expect(seen.at(-1)).toEqual({ type: 'end', reason: 'closed' });
  });

  it("upgrades the extension's WebSocket, which then signs in as on a relay", async () => {
    const issued = (await (await api('POST', '/v1/extension/token', { name: 'laptop' })).json()) as { token: string };
    const extension = await FakeExtension.connect(lb.url, { token: issued.token, sessions: [] });
    try {
      expect((await extension.welcome).type).toBe('welcome');
      // Whichever relay holds the socket, both list the device as connected.
      for (const relay of bed.relays) {
        const devices = await relay.api<{ devices: { connected: boolean }[] }>('GET', '/v1/console/devices');
        expect(devices.body.devices.map((d) => d.connected)).toEqual([true]);
      }
    } finally {
      extension.close();
    }
  });
});
