/** A small loopback HTTP server for corpora: files under a root (never above it) and JSON reports. */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** Handles a request and returns true, or returns false to let the server answer 404. */
export type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface CorpusServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<CorpusServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://corpus');
    handler(url, req, res)
      .then((handled) => {
        if (!handled && !res.headersSent) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
        }
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The file `relative` under `root`, or undefined when it escapes the root or does not exist. */
export async function readUnder(root: string, relative: string): Promise<{ path: string; body: Buffer } | undefined> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  const path = resolve(base, `.${sep}${decoded}`);
  if (path !== base && !path.startsWith(base + sep)) return undefined;
  try {
    return { path, body: await readFile(path) };
  } catch {
    return undefined;
  }
}

export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

const MAX_REPORT_BYTES = 1_000_000;

/** A request's JSON body (at most 1 MB); undefined when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REPORT_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
