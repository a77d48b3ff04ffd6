// Prints the Chromium the relay would use; exits 1 (with the reason on stderr) when there is none.
// Imports only the finder, so a problem elsewhere in the relay is not mistaken for a missing browser.
import { findChromium } from '@tandem/relay/chromium';

try {
  process.stdout.write(`${findChromium()}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
