import { EXTENSION_PUBLIC_KEY } from '@tandem/shared';
import { defineConfig } from 'wxt';

// See https://wxt.dev/api/config.html
export default defineConfig({
  manifest: {
    name: 'Tandem',
    description: 'Lets your Tandem relay drive tabs in this browser when you turn the API on.',
    minimum_chrome_version: '116',
    // The public key pins the extension id (EXTENSION_ID in shared/src/protocol), so the relay can check the socket's Origin.
    key: EXTENSION_PUBLIC_KEY,
    // storage: the relay URL, device token and API Enabled switch (utils/storage.ts). More with local mode.
    permissions: ['storage'],
    action: { default_title: 'Tandem' },
  },
  zip: { artifactTemplate: 'tandem-extension-{{version}}-{{browser}}.zip' },
});
