// Playwright browser servers as `npm run tandem-browser` runs them (relay/test/browser-server.ts), each in a
// process of its own, so a test can kill one the way a crash would.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./browser-server.ts', import.meta.url));

export class BrowserServers {
  /** Every server started, in order. */
  readonly children: ChildProcess[] = [];

  /** Starts one on `port` (0: any free one) at `wsPath`; answers its ws:// endpoint once it listens. */
  async start(port: number, wsPath: string): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, String(port), wsPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.children.push(child);
    let out = '';
    for await (const chunk of child.stdout!) {
      out += String(chunk);
      if (out.includes('\n')) break;
    }
    return out.trim();
  }

  stop(): void {
    for (const child of this.children) if (child.exitCode === null) child.kill('SIGTERM');
  }
}
