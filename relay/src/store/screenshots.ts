import { mkdirSync } from 'node:fs';
import { open, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ImageKind, type ImageStore, imageKindOf, ScreenshotNotStored, type StoredImage } from './image-store';
import { randomBase62 } from './secrets';

/** Writes one file; the store's only way to the disk, so tests can put a failing disk behind it. */
export type FileWriter = (path: string, data: Buffer) => Promise<void>;

/** Why a write failed, in words, for the usual errno codes. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'the relay may not write there',
  EPERM: 'the relay may not write there',
  EROFS: 'the file system is read-only',
  ENOENT: 'the screenshots directory is gone',
  ENOTDIR: 'the screenshots directory is not a directory',
};

/** A write the disk refused, said the way an answer without its screenshot says it. */
function diskRefused(error: unknown): ScreenshotNotStored {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const reason = `${WRITE_FAILURES[code] ?? (error instanceof Error ? error.message : String(error))}${code ? ` (${code})` : ''}`;
  const advice = "Free disk space in the relay's data directory (TANDEM_DATA_DIR)";
  return new ScreenshotNotStored(reason, advice, `${advice} or fix its permissions`);
}

/**
 * Screenshots as files under the data dir (the default ImageStore). `folder` and `ttlMs` tell one shelf
 * from another (answers' screenshots for a day, the step history's for as long as the history).
 */
export class ScreenshotStore implements ImageStore {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly ttlMs: number,
    private readonly write: FileWriter = writeFile,
    folder = 'screenshots',
  ) {
    this.dir = join(dataDir, folder);
    mkdirSync(this.dir, { recursive: true });
  }

  /** No partial file is left when the disk refuses the image. */
  async save(image: Buffer, kind: ImageKind = 'png'): Promise<string> {
    const file = `${randomBase62(128)}.${kind}`;
    const path = join(this.dir, file);
    try {
      await this.write(path, image).catch(async (error: unknown) => {
        // Someone cleaned up the directory while the relay ran: make it again, once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(this.dir, { recursive: true });
        await this.write(path, image);
      });
    } catch (error) {
      await rm(path, { force: true }).catch(() => undefined);
      throw diskRefused(error);
    }
    return file;
  }

  /** The path of a stored file's name, or undefined when the name is malformed (never a path outside the dir). */
  pathOf(file: string): string | undefined {
    return imageKindOf(file) ? join(this.dir, file) : undefined;
  }

  async open(file: string): Promise<StoredImage | undefined> {
    const path = this.pathOf(file);
    const kind = imageKindOf(file);
    if (!path || !kind) return undefined;
    try {
      const handle = await open(path);
      const { size } = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      return { kind, size, body: handle.createReadStream() };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** A stored image whole, and its kind, or undefined when there is none by that name. */
  async read(file: string): Promise<{ image: Buffer; kind: ImageKind } | undefined> {
    const path = this.pathOf(file);
    const kind = imageKindOf(file);
    if (!path || !kind) return undefined;
    try {
      return { image: await readFile(path), kind };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0; // the directory is gone or unreadable: saving says so, sweeping has nothing to do
    }
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        if (now - (await stat(file)).mtimeMs > this.ttlMs) {
          await unlink(file);
          removed++;
        }
      } catch {
        // Already gone (another sweep): nothing to do.
      }
    }
    return removed;
  }
}
