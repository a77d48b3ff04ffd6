/**
 * deploy/nginx.conf run for real (Debian's `nginx` package) in front of relays on loopback: the file as
 * shipped, with only what Compose would provide swapped in — the relays' addresses for their service
 * names, a free loopback port for `listen 8080`, and a temp folder for the log, the pid and the temp files.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NGINX_CONF = join(dirname(fileURLToPath(import.meta.url)), '../../deploy/nginx.conf');
export const NGINX_MISSING = 'nginx is not installed: `apt-get install -y nginx` (.ci/run does).';

export interface Nginx {
  url: string;
  /** The access log so far. */
  accessLog(): string;
  stop(): Promise<void>;
}

function nginxBinary(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return undefined;
}

/** deploy/nginx.conf with `relay-N` pointing at `relays[N-1]` (host:port), listening on `port`, writing to `dir`. */
export function localConf(relays: string[], port: number, dir: string): string {
  let conf = readFileSync(NGINX_CONF, 'utf8')
    .replace(/\blisten 8080;/, `listen 127.0.0.1:${port};`)
    .replace(/\baccess_log \/var\/log\/nginx\/access\.log\b/, `access_log ${join(dir, 'access.log')}`)
    .replace(/\bserver relay-(\d+):8787\b/g, (_all, n: string) => {
      const address = relays[Number(n) - 1];
      if (!address) throw new Error(`nginx.conf names relay-${n}; the test started ${relays.length} relays`);
      return `server ${address}`;
    });
  // Temp files where this process may write them (Debian's build puts them under /var/lib/nginx).
  conf = conf.replace(
    /^http \{$/m,
    ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((kind) => `${kind === 'body' ? 'client_body' : kind}_temp_path ${join(dir, kind)};`)
      .reduce((text, line) => `${text}\n  ${line}`, 'http {'),
  );
  return conf;
}

/** Starts nginx on `port` in front of `relays`; resolves once it accepts connections. */
export async function startNginx(relays: string[], port: number): Promise<Nginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error(NGINX_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'tandem-nginx-'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, localConf(relays, port, dir));
  writeFileSync(join(dir, 'access.log'), '');
  const globals = `daemon off; master_process on; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} warn;`;
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', conf, '-g', globals], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () => readFileSync(join(dir, 'access.log'), 'utf8'),
    stop,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
