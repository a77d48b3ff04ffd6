/**
 * A throwaway Redis for tests and benchmarks: `redis-server` (Debian's `redis-server` package) on a free
 * loopback port, nothing written to disk, stopped by `stop()`. `TANDEM_TEST_REDIS_URL` uses a running one.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export const REDIS_MISSING =
  'Redis is not installed: `apt-get install -y redis-server` (or set TANDEM_TEST_REDIS_URL to a running one).';

export function redisAvailable(): boolean {
  return Boolean(process.env.TANDEM_TEST_REDIS_URL) || spawnSync('redis-server', ['--version']).status === 0;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRedis(): Promise<RedisServer> {
  const external = process.env.TANDEM_TEST_REDIS_URL;
  if (external) return { url: external, stop: async () => undefined };
  if (!redisAvailable()) throw new Error(REDIS_MISSING);
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    await exited;
  };
  // Ready once it answers PING.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') {
        probe.disconnect();
        return { url, stop };
      }
    } catch {
      probe.disconnect();
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`redis-server did not start on port ${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
