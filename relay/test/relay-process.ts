// A relay in a process of its own, started as a user starts it (npm start, or tsx on main.ts): for
// tests of what only a real start shows, and of load that could stall a relay's event loop — a stuck
// child is killed, where a stuck relay inside the test worker would hang the whole run.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface RelayProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** The first-start banner, once printed; rejects with the output if the process ends first. */
  banner: Promise<string>;
  /** Ctrl-C as a terminal sends it (to the whole process group), then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `command args` in `cwd` with exactly `env`, in its own process group. */
export function spawnRelay(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): RelayProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const banner = new Promise<string>((found, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // The banner is written in one piece; its last line names the reference URL.
      const match = /Tandem is ready[\s\S]*?API reference : \S+\n/.exec(output);
      if (match) found(match[0]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code, signal) =>
      fail(new Error(`the relay process ended (${signal ?? code}) before its banner:\n${output}`)),
    );
  });
  banner.catch(() => undefined);
  return { child, output: () => output, banner, stop: () => stopGroup(child) };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const group = -child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group, name);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  // A relay stuck in a computation cannot handle the signal: it is killed.
  const timer = setTimeout(() => signal('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** A value the banner prints as `name : value`. */
export function bannerField(banner: string, name: string): string {
  const value = new RegExp(`${name}\\s*: (\\S+)`).exec(banner)?.[1];
  if (!value) throw new Error(`no "${name}" in the banner:\n${banner}`);
  return value;
}

/** The variables the README documents, which a relay started "with defaults" must not see. */
export const isSetting = (name: string) =>
  /^(TANDEM_|OPENAI_|PORT$|HOST$|LOG_LEVEL$|npm_|INIT_CWD$)/.test(name) && name !== 'CHROMIUM_PATH';

/** This process's environment without any setting, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!isSetting(name)) env[name] = value;
  return { ...env, ...extra };
}

/**
 * Runs one of the relay's command lines (`relay/src/cli/<name>.ts`, as `npm run <name>` does) on a
 * relay's store, with `input` on standard input; answers its exit code and everything it printed.
 */
export function runRelayCli(
  name: string,
  args: string[],
  store: { dataDir: string; databaseUrl?: string | undefined },
  input = '',
): Promise<{ code: number | null; out: string }> {
  const cli = fileURLToPath(new URL(`../src/cli/${name}.ts`, import.meta.url));
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = { TANDEM_DATA_DIR: store.dataDir };
    if (store.databaseUrl) env.TANDEM_DATABASE_URL = store.databaseUrl;
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { env: cleanEnv(env) });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(input);
  });
}
