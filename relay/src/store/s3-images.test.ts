// The S3 image store against a real S3-compatible server over HTTP (s3rver, relay/test/s3-server.ts).
import { createServer, type Server, type Socket } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_SECRET, type S3Server, startS3Server } from '../../test/s3-server';
import { closedPort } from '../../test/support';
import { ScreenshotNotStored, ScreenshotStoreUnavailable } from './image-store';
import { S3Bucket } from './s3-bucket';
import { S3ImageStore } from './s3-images';
import { parseS3Url } from './s3-url';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

/** Both shelves of one bucket, as the relay makes them; `batch` keys per listed page and per delete. */
async function shelves(bucketName: string, prefix?: string, batch?: number) {
  await s3.createBucket(bucketName);
  const location = parseS3Url(s3.urlFor(bucketName, prefix));
  const bucket = new S3Bucket(location, { batch });
  return {
    answers: new S3ImageStore(bucket, DAY, { prefix: location.prefix, folder: 'screenshots' }),
    steps: new S3ImageStore(bucket, 7 * DAY, { prefix: location.prefix, folder: 'step-screenshots' }),
  };
}

const png = (text: string) => Buffer.from(`\x89PNG fake ${text}`);

describe('screenshots in an S3 bucket', () => {
  it("keeps each shelf's images under its prefix, with their Content-Type, and hands them back", async () => {
    const { answers, steps } = await shelves('shelves', 'tandem/prod');
    const shot = await answers.save(png('answer'));
    const step = await steps.save(Buffer.from('jpeg of a step'), 'jpg');
    expect(shot).toMatch(/^[0-9A-Za-z]{22}\.png$/);
    expect(step).toMatch(/^[0-9A-Za-z]{22}\.jpg$/);

    expect(await s3.keys('shelves')).toEqual(
      [`tandem/prod/screenshots/${shot}`, `tandem/prod/step-screenshots/${step}`].sort(),
    );
    expect(await s3.object('shelves', `tandem/prod/screenshots/${shot}`)).toEqual({
      body: png('answer'),
      contentType: 'image/png',
    });
    expect((await s3.object('shelves', `tandem/prod/step-screenshots/${step}`))?.contentType).toBe('image/jpeg');

    const opened = await answers.open(shot);
    expect(opened).toMatchObject({ kind: 'png', size: png('answer').length });
    expect(await buffer(opened!.body)).toEqual(png('answer'));
    const openedStep = await steps.open(step);
    expect(openedStep?.kind).toBe('jpg');
    expect(await buffer(openedStep!.body)).toEqual(Buffer.from('jpeg of a step'));
    // Each shelf sees only its own images.
    expect(await answers.open(step)).toBeUndefined();
    expect(await answers.open(`${'A'.repeat(22)}.png`)).toBeUndefined();
  });

  it('never asks the bucket about a malformed name', async () => {
    const { answers } = await shelves('names');
    const before = s3.requests.length;
    for (const name of ['../x.png', `${'A'.repeat(22)}.gif`, `../${'A'.repeat(22)}.png`, `${'A'.repeat(21)}.png`]) {
      expect(await answers.open(name)).toBeUndefined();
    }
    expect(s3.requests.length).toBe(before);
  });

  it('sweeps each shelf by its own time to live, a listed page at a time, leaving the rest of the bucket', async () => {
    const { answers, steps } = await shelves('sweep', undefined, 2);
    const old = await Promise.all([1, 2, 3].map((n) => answers.save(png(`old ${n}`))));
    const fresh = await answers.save(png('fresh'));
    const oldStep = await steps.save(png('old step'), 'jpg');
    const weekOldStep = await steps.save(png('8 days'), 'jpg');
    const dayOldStep = await steps.save(png('a day'), 'jpg');
    for (const name of old) s3.age('sweep', `screenshots/${name}`, DAY + HOUR);
    s3.age('sweep', `step-screenshots/${oldStep}`, 8 * DAY);
    s3.age('sweep', `step-screenshots/${weekOldStep}`, 7 * DAY + HOUR);
    s3.age('sweep', `step-screenshots/${dayOldStep}`, DAY + HOUR);
    // Someone else's object beside the shelves, however old, is not the relay's to delete.
    await new S3Bucket(parseS3Url(s3.urlFor('sweep'))).put('elsewhere/old.png', png('other'), 'image/png');
    s3.age('sweep', 'elsewhere/old.png', 30 * DAY);

    const requestsBefore = s3.requests.length;
    expect(await answers.sweep()).toBe(3);
    const made = s3.requests.slice(requestsBefore);
    // Four objects on the shelf, two a page: two listings (the second continuing the first), two deletes.
    expect(made.filter((r) => r.startsWith('GET /sweep?list-type=2'))).toHaveLength(2);
    expect(made.filter((r) => r.includes('continuation-token='))).toHaveLength(1);
    expect(made.filter((r) => r.startsWith('POST /sweep?delete'))).toHaveLength(2);
    expect(await steps.sweep()).toBe(2);

    expect(await s3.keys('sweep')).toEqual(
      ['elsewhere/old.png', `screenshots/${fresh}`, `step-screenshots/${dayOldStep}`].sort(),
    );
    expect(await answers.open(old[0]!)).toBeUndefined();
    expect(await answers.sweep()).toBe(0);
    expect(await answers.sweep(Date.now() + DAY + HOUR)).toBe(1);
  });
});

describe('an S3 store that refuses the relay', () => {
  it('a wrong key: saving is ScreenshotNotStored with the status and S3 code, reading is unavailable', async () => {
    await s3.createBucket('locked');
    const location = parseS3Url(s3.urlFor('locked', undefined, { key: 'not-a-key', secret: S3_SECRET }));
    const store = new S3ImageStore(new S3Bucket(location), DAY, { prefix: '', folder: 'screenshots' });
    const refused = await store.save(png('x')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ScreenshotNotStored);
    expect((refused as ScreenshotNotStored).reason).toBe(
      'the object store refused to store it (403 InvalidAccessKeyId)',
    );
    expect((refused as ScreenshotNotStored).message).toBe(
      'The screenshot was taken but could not be stored: the object store refused to store it (403 InvalidAccessKeyId). Check the object store in TANDEM_S3_URL: it must be up, its bucket must exist and its key must be allowed to write there, then retry.',
    );
    expect(await s3.keys('locked')).toEqual([]);
    const read = await store.open(`${'A'.repeat(22)}.png`).catch((error: unknown) => error);
    expect(read).toBeInstanceOf(ScreenshotStoreUnavailable);
    expect((read as Error).message).toMatch(
      /^The screenshot could not be read: the object store refused to hand it back \(403 InvalidAccessKeyId\)/,
    );
    await expect(store.sweep()).rejects.toThrow('the object store refused to list the bucket (403 InvalidAccessKeyId)');
  });

  it('a bucket that does not exist is said the same way, when saving and when reading', async () => {
    const location = parseS3Url(s3.urlFor('no-such-bucket'));
    const store = new S3ImageStore(new S3Bucket(location), DAY, { prefix: '', folder: 'screenshots' });
    await expect(store.save(png('x'))).rejects.toThrow('the object store refused to store it (404 NoSuchBucket)');
    await expect(store.open(`${'A'.repeat(22)}.png`)).rejects.toThrow(
      'The screenshot could not be read: the object store has no such bucket (404 NoSuchBucket).',
    );
  });

  it('a store nobody listens at, and one that never answers', async () => {
    const down = parseS3Url(`http://k:secret-key@127.0.0.1:${await closedPort()}/shots`);
    const unreachable = new S3ImageStore(new S3Bucket(down), DAY, { prefix: '', folder: 'screenshots' });
    await expect(unreachable.save(png('x'))).rejects.toThrow('the object store could not be reached (ECONNREFUSED)');

    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket)); // accepts, then says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const hung = parseS3Url(`http://k:secret-key@127.0.0.1:${port}/shots`);
      const store = new S3ImageStore(new S3Bucket(hung, { timeoutMs: 300 }), DAY, {
        prefix: '',
        folder: 'screenshots',
      });
      await expect(store.save(png('x'))).rejects.toThrow('the object store did not answer within 0.3 s');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
