/**
 * A real S3-compatible server for tests: s3rver (objects on disk in a temp folder) on a free loopback
 * port, over HTTP, stopped by `close()`. It knows one access key, S3RVER (secret S3RVER): a request
 * signed with any other key id is refused with 403 InvalidAccessKeyId. It does not check SigV4
 * signatures themselves (its V4 support stops at the key id), so a wrong secret with the right key id
 * would pass here where MinIO or AWS answers 403 SignatureDoesNotMatch.
 */
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';

export const S3_KEY = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** Every request the server was sent, as `METHOD /path?query`. */
  requests: string[];
  /** TANDEM_S3_URL for a bucket (made if missing) and an optional prefix, with these credentials. */
  urlFor(bucket: string, prefix?: string, credentials?: { key: string; secret: string }): string;
  /** Makes a bucket. */
  createBucket(bucket: string): Promise<void>;
  /** An object as the bucket holds it, read with a client of its own; undefined when there is none. */
  object(bucket: string, key: string): Promise<{ body: Buffer; contentType: string | null } | undefined>;
  /** Every key in a bucket under a prefix (one ListObjectsV2 page: tests keep buckets small). */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  /** Makes an object look written `ms` ago (s3rver takes LastModified from the file's mtime). */
  age(bucket: string, key: string, ms: number): void;
  close(): Promise<void>;
}

/**
 * s3rver seals its ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node 17 and
 * later) no longer offers, so every listing past the first page fails with a 500. Its tokens are its
 * own business (it makes and reads them), so in this test process 'des' is served as triple DES, which
 * OpenSSL 3 still has, with the same 8-byte blocks and IV. Nothing else here asks for 'des'.
 */
function letS3rverPaginate(): void {
  const { createCipheriv, createDecipheriv } = crypto;
  const tripled = (key: crypto.CipherKey) => Buffer.concat([key, key, key] as Buffer[]);
  type Make = (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) => crypto.Cipher;
  const swap =
    (make: Make): Make =>
    (algorithm, key, iv) =>
      algorithm === 'des' ? make('des-ede3-cbc', tripled(key), iv) : make(algorithm, key, iv);
  if ((crypto as { s3rverShim?: boolean }).s3rverShim) return;
  Object.assign(crypto, {
    s3rverShim: true,
    createCipheriv: swap(createCipheriv as Make),
    createDecipheriv: swap(createDecipheriv as unknown as Make),
  });
}

export async function startS3Server(): Promise<S3Server> {
  letS3rverPaginate();
  const directory = mkdtempSync(join(tmpdir(), 'tandem-s3-'));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port }: AddressInfo = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const requests: string[] = [];
  // run() made this server; a second listener only watches what it is asked.
  const server = (s3rver as unknown as { httpServer: import('node:http').Server }).httpServer;
  server.on('request', (req) => requests.push(`${req.method} ${req.url}`));
  const client = new AwsClient({ accessKeyId: S3_KEY, secretAccessKey: S3_SECRET, service: 's3', region: 'us-east-1' });
  const call = async (path: string, init: RequestInit = {}) => client.fetch(`${endpoint}${path}`, init);
  return {
    endpoint,
    requests,
    urlFor(bucket, prefix, credentials = { key: S3_KEY, secret: S3_SECRET }) {
      const auth = `${encodeURIComponent(credentials.key)}:${encodeURIComponent(credentials.secret)}`;
      return `http://${auth}@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}`;
    },
    async createBucket(bucket) {
      const res = await call(`/${bucket}`, { method: 'PUT' });
      if (!res.ok) throw new Error(`bucket ${bucket} not made: ${res.status} ${await res.text()}`);
    },
    async object(bucket, key) {
      const res = await call(`/${bucket}/${key}`);
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`object ${key}: ${res.status}`);
      return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
    },
    async keys(bucket, prefix = '') {
      const res = await call(`/${bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`);
      const xml = await res.text();
      if (!res.ok) throw new Error(`list ${bucket}: ${res.status} ${xml}`);
      return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1] ?? '').sort();
    },
    age(bucket, key, ms) {
      const parts = key.split('/');
      const file = `${parts.pop()}._S3rver_object`;
      const then = (Date.now() - ms) / 1000;
      utimesSync(join(directory, bucket, ...parts, file), then, then);
    },
    async close() {
      server.closeAllConnections();
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
