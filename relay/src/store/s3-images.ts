import {
  CONTENT_TYPES,
  type ImageKind,
  type ImageStore,
  imageKindOf,
  ScreenshotNotStored,
  ScreenshotStoreUnavailable,
  type StoredImage,
} from './image-store';
import { type S3Bucket, S3Failure } from './s3-bucket';
import { randomBase62 } from './secrets';

const ADVICE =
  'Check the object store in TANDEM_S3_URL: it must be up, its bucket must exist and its key must be allowed to write there';

/**
 * One shelf of images as objects under `<prefix><folder>/` in an S3-compatible bucket, so every relay of a
 * cluster reads what any of them stored. The bucket stays private: the relay reads the object and
 * streams it to whoever holds the capability URL.
 */
export class S3ImageStore implements ImageStore {
  private readonly shelf: string;

  constructor(
    private readonly bucket: S3Bucket,
    private readonly ttlMs: number,
    options: { prefix: string; folder: string },
  ) {
    this.shelf = `${options.prefix}${options.folder}/`;
  }

  /** The object key of an image name. */
  keyOf(name: string): string {
    return `${this.shelf}${name}`;
  }

  async save(image: Buffer, kind: ImageKind = 'png'): Promise<string> {
    const name = `${randomBase62(128)}.${kind}`;
    try {
      await this.bucket.put(this.keyOf(name), image, CONTENT_TYPES[kind]);
    } catch (error) {
      if (error instanceof S3Failure) throw new ScreenshotNotStored(error.reason, ADVICE);
      throw error;
    }
    return name;
  }

  async open(name: string): Promise<StoredImage | undefined> {
    const kind = imageKindOf(name);
    if (!kind) return undefined;
    try {
      const found = await this.bucket.get(this.keyOf(name));
      return found && { kind, ...found };
    } catch (error) {
      if (error instanceof S3Failure) throw new ScreenshotStoreUnavailable(error.reason);
      throw error;
    }
  }

  /** Lists the shelf a page at a time and deletes what is older than its time to live. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for await (const page of this.bucket.list(this.shelf)) {
      const old = page.filter((object) => now - object.lastModified > this.ttlMs).map((object) => object.key);
      if (old.length) removed += await this.bucket.delete(old);
    }
    return removed;
  }
}
