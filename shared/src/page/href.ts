import { strLower, strSlice, strStartsWith } from './intrinsics';

/** Shortens a link: same-origin links lose their origin, `javascript:` code is not shown. */
export function shortenHref(href: string, origin: string): string {
  if (strStartsWith(strLower(href), 'javascript:')) return 'javascript:';
  if (origin && strStartsWith(href, `${origin}/`)) return strSlice(href, origin.length);
  return href;
}
