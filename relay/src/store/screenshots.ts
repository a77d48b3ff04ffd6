import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '../errors';
import { randomBase62 } from './secrets';

/** A stored image's file name: its 128-bit token and its kind. */
const FILE = /^[0-9A-Za-z]{22}\.(png|jpg)$/;

export type ImageKind = 'png' | 'jpg';

export const CONTENT_TYPES: Record<ImageKind, string> = { png: 'image/png', jpg: 'image/jpeg' };

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

/** A screenshot was taken but could not be written to the data directory (disk full, no permission). */
export class ScreenshotNotStored extends DomainError {
  /** What went wrong, short, for a response that goes out without its screenshot. */
  readonly reason: string;

  constructor(error: unknown) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = `${WRITE_FAILURES[code] ?? (error instanceof Error ? error.message : String(error))}${code ? ` (${code})` : ''}`;
    super(
      'screenshot_not_stored',
      `The screenshot was taken but could not be stored: ${reason}. Free disk space in the relay's data directory (TANDEM_DATA_DIR) or fix its permissions, then retry.`,
      60,
    );
    this.reason = reason;
  }
}

/**
 * Screenshots as files under the data dir, named by a 128-bit random token: the URL is the capability
 * (like a presigned URL), so serving it needs no API key. `folder` and `ttlMs` tell one shelf from
 * another (answers' screenshots for a day, the step history's for as long as the history).
 */
export class ScreenshotStore {
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

  /**
   * Stores an image and returns its file name (`<token>.<kind>`); ScreenshotNotStored when the disk
   * refuses it (no partial file is left).
   */
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
      throw new ScreenshotNotStored(error);
    }
    return file;
  }

  /** The path of a stored file's name, or undefined when the name is malformed (never a path outside the dir). */
  pathOf(file: string): string | undefined {
    return FILE.test(file) ? join(this.dir, file) : undefined;
  }

  /** A stored image and its kind, or undefined when there is none by that name. */
  async read(file: string): Promise<{ image: Buffer; kind: ImageKind } | undefined> {
    const path = this.pathOf(file);
    if (!path) return undefined;
    try {
      return { image: await readFile(path), kind: file.endsWith('.jpg') ? 'jpg' : 'png' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Deletes screenshots older than the TTL; returns how many. */
  sweep(now = Date.now()): number {
    let removed = 0;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0; // the directory is gone or unreadable: saving says so, sweeping has nothing to do
    }
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        if (now - statSync(file).mtimeMs > this.ttlMs) {
          unlinkSync(file);
          removed++;
        }
      } catch {
        // Already gone (another sweep): nothing to do.
      }
    }
    return removed;
  }
}
