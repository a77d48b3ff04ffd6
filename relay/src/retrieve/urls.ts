/** `value` resolved against the page's URL, or undefined when it is no URL at all. */
export function resolveUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}
