/**
 * A Playwright browser server in its own process, as on another machine, started the way users start
 * one (`npm run tandem-browser`): `tsx browser-server.ts PORT PATH`. Prints the ws endpoint on stdout
 * and runs until SIGTERM.
 */
const [port = '0', wsPath = '/tandem-test'] = process.argv.slice(2);
process.argv = [process.argv[0] as string, process.argv[1] as string, '--port', port, '--path', wsPath];
await import('../src/cli/browser-server');

export {};
