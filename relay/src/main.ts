import { startBanner } from './banner';
import { ConfigError, launchDir, loadConfig, loadDotEnv } from './config';
import { startRelay } from './server';

/** How long a shutdown may take before the process exits anyway (a browser that will not close). */
const SHUTDOWN_LIMIT_MS = 15_000;

/** Why the relay could not start, in words the operator can act on. */
function startFailure(error: unknown, config: ReturnType<typeof loadConfig>): string {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.HOST}:${config.PORT}`;
  if (code === 'EADDRINUSE') {
    return `port ${config.PORT} on ${config.HOST} is already in use (another Tandem?). Stop what listens on ${where}, or set PORT to another port (PORT=0 picks a free one).`;
  }
  if (code === 'EACCES') return `not allowed to listen on ${where}. Use a port above 1023 (PORT).`;
  if (code === 'EADDRNOTAVAIL') return `this machine has no address ${config.HOST}. Set HOST to one of its addresses.`;
  return (error as Error).message;
}

/**
 * `npm start`: configuration from the environment (and `.env` in the folder it was started from),
 * then the relay until SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const dir = launchDir();
  loadDotEnv(dir);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, {}, dir);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nFix these environment variables (or .env) and start again.\n`);
      process.exit(1);
    }
    throw error;
  }
  let relay: Awaited<ReturnType<typeof startRelay>>;
  try {
    relay = await startRelay(config);
  } catch (error) {
    // Startup problems (port in use, bad model settings) are the operator's to fix: say what, not a stack.
    process.stderr.write(`Tandem could not start: ${startFailure(error, config)}\n`);
    process.exit(1);
  }
  process.stdout.write(startBanner(relay.services.publicUrl(), relay.firstStart));
  let stopping = false;
  // Ctrl-C reaches npm, tsx and this process at once, and each may pass it on: one shutdown, whatever
  // arrives after it, bounded in time.
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    relay.services.logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
    void relay.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
