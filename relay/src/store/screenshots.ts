import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from './secrets';

const TOKEN = /^[0-9A-Za-z]{22}$/;

/**
 * Screenshots as files under the data dir, named by a 128-bit random token: the URL is the capability
 * (like a presigned URL), so serving it needs no API key.
 */
export class ScreenshotStore {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly ttlMs: number,
  ) {
    this.dir = join(dataDir, 'screenshots');
    mkdirSync(this.dir, { recursive: true });
  }

  async save(png: Buffer): Promise<string> {
    const token = randomBase62(128);
    await writeFile(join(this.dir, `${token}.png`), png);
    return token;
  }

  /** The file for a token, or undefined when the token is malformed (never a path outside the dir). */
  pathOf(token: string): string | undefined {
    return TOKEN.test(token) ? join(this.dir, `${token}.png`) : undefined;
  }

  /** Deletes screenshots older than the TTL; returns how many. */
  sweep(now = Date.now()): number {
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
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
