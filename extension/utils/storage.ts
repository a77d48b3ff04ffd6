import { storage } from '#imports';

/** Where the relay listens; the popup shows it and the background socket will connect to it. */
export const relayUrl = storage.defineItem<string>('local:relayUrl', { fallback: 'http://127.0.0.1:8787' });

/** The revocable device token the relay issues at sign-in; null while signed out. */
export const deviceToken = storage.defineItem<string | null>('local:deviceToken', { fallback: null });

/** Whether the user lets the relay drive this browser (the popup's API Enabled toggle). Off by default. */
export const apiEnabled = storage.defineItem<boolean>('local:apiEnabled', { fallback: false });
