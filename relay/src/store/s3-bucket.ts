import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
// aws4fetch signs requests with SigV4 over the global fetch: one small dependency-free file. The AWS SDK
// would bring dozens of packages and its own HTTP stack for the four calls the relay makes (put, get,
// list, delete), and pins nothing an S3-compatible store needs that this does not.
import { AwsClient } from 'aws4fetch';
import type { S3Location } from './s3-url';

/** How long one request may take before the store counts as not answering. */
const REQUEST_TIMEOUT_MS = 15_000;
/** ListObjectsV2 answers at most this many keys a page, DeleteObjects takes at most this many a call. */
const BATCH = 1000;

export interface S3BucketOptions {
  /** How long one request may take before the store counts as not answering. */
  timeoutMs?: number;
  /** Keys per listed page and per delete call (S3's limit is 1000; smaller in tests, to see several). */
  batch?: number;
}

/** What the object store did instead of what was asked, in words (never the credentials or the URL). */
export class S3Failure extends Error {
  constructor(
    readonly reason: string,
    readonly status?: number,
  ) {
    super(reason);
    this.name = 'S3Failure';
  }
}

export interface S3Object {
  key: string;
  /** Epoch milliseconds. */
  lastModified: number;
}

/**
 * One bucket of an S3-compatible store, addressed path-style (`endpoint/bucket/key`): the calls the
 * image store needs and nothing else. Every failure is an S3Failure.
 */
export class S3Bucket {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly batch: number;

  constructor(location: S3Location, options: S3BucketOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.batch = Math.min(options.batch ?? BATCH, BATCH);
    // Few retries: a screenshot is not worth keeping an answer waiting for a store that keeps failing.
    this.client = new AwsClient({
      accessKeyId: location.accessKeyId,
      secretAccessKey: location.secretAccessKey,
      service: 's3',
      region: location.region,
      retries: 2,
    });
    this.base = `${location.endpoint}/${location.bucket}`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.request(`/${key}`, {
      method: 'PUT',
      // A copy the fetch typings take as a plain ArrayBuffer view (a Buffer's may be shared memory).
      body: Uint8Array.from(body),
      headers: { 'Content-Type': contentType, 'X-Amz-Content-Sha256': sha256(body) },
    });
    await textOf(res, 'refused to store it');
  }

  /** The object's bytes as they arrive, or undefined when there is no such key. */
  async get(key: string): Promise<{ body: Readable; size: number | undefined } | undefined> {
    const res = await this.request(`/${key}`, { method: 'GET' });
    if (res.status === 404) {
      const text = await res.text();
      // A missing bucket is a store set up wrong, not an image that expired.
      if (tagText(text, 'Code') !== 'NoSuchBucket') return undefined;
      throw new S3Failure('the object store has no such bucket (404 NoSuchBucket)', 404);
    }
    if (!res.ok) await textOf(res, 'refused to hand it back');
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    return {
      body: res.body ? Readable.fromWeb(res.body as WebReadableStream) : Readable.from([]),
      size: Number.isSafeInteger(length) ? length : undefined,
    };
  }

  /** The objects under `prefix`, a page (ListObjectsV2) at a time. */
  async *list(prefix: string): AsyncGenerator<S3Object[]> {
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix, 'max-keys': String(this.batch) });
      if (token) query.set('continuation-token', token);
      const res = await this.request(`?${query}`, { method: 'GET' });
      const xml = await textOf(res, 'refused to list the bucket');
      yield listedObjects(xml);
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? tagText(xml, 'NextContinuationToken') : undefined;
    } while (token);
  }

  /** Deletes the keys (DeleteObjects, in batches); returns how many the store says it deleted. */
  async delete(keys: string[]): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < keys.length; i += this.batch) {
      const batch = keys.slice(i, i + this.batch);
      const body = `<Delete><Quiet>true</Quiet>${batch.map((key) => `<Object><Key>${escapeXml(key)}</Key></Object>`).join('')}</Delete>`;
      const res = await this.request('?delete', {
        method: 'POST',
        body,
        headers: {
          'Content-Type': 'application/xml',
          // DeleteObjects insists on a checksum of its body.
          'Content-MD5': createHash('md5').update(body).digest('base64'),
          'X-Amz-Content-Sha256': sha256(body),
        },
      });
      const xml = await textOf(res, 'refused to delete');
      // Quiet mode lists only the failures; a store that ignores it lists the deleted keys too.
      deleted += batch.length - [...xml.matchAll(/<Error>/g)].length;
    }
    return deleted;
  }

  private async request(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.client.fetch(`${this.base}${path}`, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        throw new S3Failure(`the object store did not answer within ${this.timeoutMs / 1000} s`);
      }
      const cause = (error as { cause?: { code?: unknown } }).cause;
      const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
      throw new S3Failure(`the object store could not be reached${code}`);
    }
  }
}

/** The body of a 2xx answer; else an S3Failure naming the status and S3's error code. */
async function textOf(res: Response, refused: string): Promise<string> {
  const text = await res.text();
  if (res.ok) return text;
  // Only the code: S3's error bodies can carry the access key id and the string that was signed.
  const code = tagText(text, 'Code');
  throw new S3Failure(`the object store ${refused} (${res.status}${code ? ` ${code}` : ''})`, res.status);
}

function listedObjects(xml: string): S3Object[] {
  const objects: S3Object[] = [];
  for (const [, contents = ''] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = tagText(contents, 'Key');
    const lastModified = Date.parse(tagText(contents, 'LastModified') ?? '');
    if (key !== undefined && Number.isFinite(lastModified)) objects.push({ key, lastModified });
  }
  return objects;
}

/** The text of the first `<tag>` in a trusted, flat S3 answer (no nesting of the same tag), unescaped. */
function tagText(xml: string, tag: string): string | undefined {
  const text = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
  return text === undefined ? undefined : unescapeXml(text);
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_all, name: string) =>
    name.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (XML_ENTITIES[name] ?? ''),
  );
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${Object.entries(XML_ENTITIES).find(([, v]) => v === c)?.[0]};`);
}

function sha256(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}
