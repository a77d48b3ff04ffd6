// The deployment topology of deploy/ without Docker: a load balancer, two relays, Redis, Postgres and two
// browser servers, all on loopback, started and stopped by the test. A client talks only to the balancer.
import { createServer, request, type Server } from 'node:http';
import type { ConsoleSessionsResponse } from '@tandem/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readStream } from './agent-support';
import { BrowserServers } from './browser-servers';
import { type ClusterBed, startClusterBed } from './cluster-support';
import { TEST_KEY } from './support';

let bed: ClusterBed;
const browsers = new BrowserServers();
let balancer: Server;
let front: string;
/** Which relay each request the balancer passed went to, by port. */
const passed: string[] = [];

/** Round robin over the relays, as any HTTP load balancer would: no stickiness, responses streamed. */
function startBalancer(targets: string[]): Promise<string> {
  let next = 0;
  balancer = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length] as string);
    passed.push(target.port);
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    balancer.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(balancer.address() as { port: number }).port}`)),
  );
}

beforeAll(async () => {
  bed = await startClusterBed();
  const endpoints = [await browsers.start(0, '/tier-1'), await browsers.start(0, '/tier-2')];
  for (const node of ['r1', 'r2']) await bed.node(node, { TANDEM_BROWSER_WS_ENDPOINTS: endpoints.join(',') });
  front = await startBalancer(bed.relays.map((r) => r.url));
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (balancer ? balancer.close(() => resolve()) : resolve()));
  await bed?.close();
  browsers.stop();
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${front}${path}`, {
    method,
    headers: { X_SERVICE_API_KEY: TEST_KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

it('serves clients through a load balancer as one service, on a tier of browser servers', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const created = await call('POST', '/v1/web/session', { url: `${bed.site.url}/form.html` });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.push(created.body.session_id as string);
  }
  // Round robin put two sessions on each relay, and the relays spread their browsers over both servers.
  expect(ids.filter((id) => id.startsWith('ses_r1_'))).toHaveLength(2);
  expect(ids.filter((id) => id.startsWith('ses_r2_'))).toHaveLength(2);
  const load = bed.relays.map((r) => r.services.browsers.load());
  expect(load.every((l) => l.every((n) => n === 1))).toBe(true);
  expect(new Set(passed).size).toBe(2);

  // Every step lands wherever the balancer sends it, JSON or streamed, and reaches its session.
  for (const id of ids) {
    const step = await call('POST', `/v1/web/session/${id}`, { cmd: 'type Ada into the Name field', stream: false });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    expect(step.body.message).toMatch(/Ada/);
    const streamed = await fetch(`${front}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'scroll down', stream: true }),
    });
    const chunks = await readStream(streamed);
    expect(chunks.at(-1)).toBe('[DONE]');
  }
  const listed = await call('GET', '/v1/web/sessions');
  expect([...(listed.body.session_ids as string[])].sort()).toEqual([...ids].sort());
  const consoleList = (await call('GET', '/v1/console/sessions')).body as unknown as ConsoleSessionsResponse;
  for (const id of ids) expect(consoleList.sessions.find((s) => s.session_id === id)?.steps).toBe(2);

  for (const id of ids)
    expect((await call('DELETE', `/v1/web/session/${id}`)).body).toEqual({ status: 'closed', session_id: id });
  expect((await call('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
});
