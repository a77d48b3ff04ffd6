import { startBanner } from './banner';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { startRelay } from './server';

/** `npm start`: configuration from the environment (and .env), then the relay until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  loadDotEnv();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
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
    process.stderr.write(`Tandem could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(startBanner(relay.services.publicUrl(), relay.firstStart));
  const stop = (signal: string) => {
    relay.services.logger.info({ signal }, 'shutting down');
    void relay.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();
