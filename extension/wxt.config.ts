import { EXTENSION_PUBLIC_KEY } from '@tandem/shared';
import { defineConfig } from 'wxt';

// See https://wxt.dev/api/config.html
export default defineConfig({
  // `wxt/browser` resolves to Mozilla's webextension-polyfill: one promise-based `browser.*` API, with
  // rejections instead of chrome.runtime.lastError, whatever the browser.
  modules: ['@wxt-dev/webextension-polyfill'],
  manifest: {
    name: 'Tandem',
    description: 'Lets your Tandem relay drive tabs in this browser when you turn the API on.',
    minimum_chrome_version: '116',
    // The public key pins the extension id (EXTENSION_ID in shared/src/protocol), so the relay can check the socket's Origin.
    key: EXTENSION_PUBLIC_KEY,
    permissions: [
      'storage', // relay URL, device token, API Enabled (utils/storage.ts); session tabs in storage.session
      'tabs', // open, navigate, close the session tabs; read their URL to refuse restricted pages
      'tabGroups', // each session's tab sits in a group named for the session
      'scripting', // inject the page runtime into session tabs (never arbitrary code from the relay)
      'webNavigation', // know when a session tab finished loading or failed to
      'alarms', // the reconnect safety net when the service worker was asleep
      // A download a session tab starts is cancelled and reported to the agent (as the remote driver
      // does): the agent must not fill the user's Downloads folder. Other tabs' downloads are left alone.
      'downloads',
      // Trusted input (DESIGN §6 "Input"), used only while the user has the popup's "Trusted input" switch
      // on: the background attaches to a session tab for a step and sends fixed Input.dispatch* events,
      // never raw DevTools commands from the relay. Chrome refuses `debugger` in optional_permissions
      // ("Only permissions specified in the manifest may be requested"), so the switch is the consent.
      'debugger',
    ],
    // Scripting and captureVisibleTab need host access to the pages the relay opens, and the popup
    // calls the relay's /v1/extension/token on whatever URL the user enters.
    host_permissions: ['<all_urls>'],
    action: { default_title: 'Tandem' },
  },
  zip: { artifactTemplate: 'tandem-extension-{{version}}-{{browser}}.zip' },
});
