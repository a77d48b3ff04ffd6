import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';

/**
 * One loopback server playing both parts of an attack: the internal service (`/secret`, a WebSocket on
 * any path; every hit recorded) and, reached under a public name, the public pages that point at it.
 */
export interface Intranet {
  port: number;
  /** "METHOD path?query" of every request, "WS path?query" of every WebSocket. */
  hits: string[];
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Links, a form, a fetch and a WebSocket aimed at `target` / `ws`; each probe writes what happened. */
function publicPage(target: string, ws: string): string {
  const quoted = (s: string) => JSON.stringify(s).replaceAll('<', '\\u003c');
  return page(
    'Public page',
    `<h1>A public page that points inside</h1>
<p><a href=${quoted(target)}>Internal admin</a></p>
<form method="post" action=${quoted(target)}><input name="q" value="x"><button type="submit">Send the form</button></form>
<button id="fetch" type="button">Fetch it</button> <p id="fetched">fetch: not tried</p>
<button id="socket" type="button">Open a socket</button> <p id="socketed">socket: not tried</p>
<script>
  const say = (id, text) => { document.getElementById(id).textContent = text; };
  document.getElementById('fetch').onclick = () =>
    fetch(${quoted(target)}, { mode: 'no-cors' }).then(() => say('fetched', 'fetch: reached'), () => say('fetched', 'fetch: refused'));
  document.getElementById('socket').onclick = () => {
    const socket = new WebSocket(${quoted(ws)});
    socket.onopen = () => say('socketed', 'socket: open');
    socket.onerror = () => say('socketed', 'socket: failed');
  };
</script>`,
  );
}

/** A page whose service worker fetches `target` when asked, and says how that went. */
function workerPage(target: string): string {
  return page(
    'Worker page',
    `<p id="worked">worker: not tried</p>
<script>
  navigator.serviceWorker.register('/sw.js').then(async () => {
    const registration = await navigator.serviceWorker.ready;
    navigator.serviceWorker.onmessage = (event) => { document.getElementById('worked').textContent = 'worker: ' + event.data; };
    registration.active.postMessage(${JSON.stringify(target)});
  }, (error) => { document.getElementById('worked').textContent = 'worker: not registered ' + error; });
</script>`,
  );
}

const WORKER = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  fetch(event.data, { mode: 'no-cors' }).then(() => 'reached', () => 'refused').then((result) => event.source.postMessage(result));
});`;

export async function startIntranet(): Promise<Intranet> {
  const hits: string[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://intranet');
    const param = (name: string) => url.searchParams.get(name) ?? '';
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname === '/public.html') return html(publicPage(param('target'), param('ws')));
    if (url.pathname === '/worker.html') return html(workerPage(param('target')));
    if (url.pathname === '/sw.js') {
      return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(WORKER);
    }
    if (url.pathname === '/redirect') return res.writeHead(302, { location: param('to') }).end();
    if (url.pathname === '/favicon.ico') return res.writeHead(404).end();
    hits.push(`${req.method} ${req.url}`);
    html(page('Internal', '<h1>Internal admin</h1><p>internal secret</p>'));
  };
  const server = createServer(handler);
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket: Socket, head) => {
    hits.push(`WS ${req.url}`);
    sockets.handleUpgrade(req, socket, head, (ws) => ws.send('internal'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
