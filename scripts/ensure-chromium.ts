// Prints the Chromium the relay would use; exits 1 (with the reason on stderr) when there is none.
import { findChromium } from '@tandem/relay';

try {
  process.stdout.write(`${findChromium()}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
