/** Bundles the page runtime into one IIFE string that installs `window.__tandem`. */
export function bundlePageRuntime(options?: { readable?: boolean }): Promise<string>;
