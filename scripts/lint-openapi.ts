// `npm run lint`: the relay's OpenAPI document, as /v1/openapi.json serves it with default settings,
// checked by Redocly's recommended rules. Offline: no telemetry, no update check, and a preload that
// refuses any network connection.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, openApiDocument } from '@tandem/relay';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument('http://127.0.0.1:8787', loadConfig({})), null, 2));
  const { status } = spawnSync(process.execPath, [cli, 'lint', file, '--config', join(root, 'redocly.yaml')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${join(root, 'scripts', 'no-network.mjs')}`.trim(),
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    },
  });
  process.exitCode = status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
