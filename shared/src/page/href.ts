import { strCharCodeAt, strIndexOf, strLastIndexOf, strLower, strSlice, strStartsWith } from './intrinsics';

/** Shortens a link: same-origin links lose their origin, `javascript:` code is not shown. */
export function shortenHref(href: string, origin: string): string {
  if (strStartsWith(strLower(href), 'javascript:')) return 'javascript:';
  if (origin && strStartsWith(href, `${origin}/`)) return strSlice(href, origin.length);
  return href;
}

/** Extensions of pages a server renders: a link to one is a web page like any other, not a file. */
const PAGE_EXTENSIONS: Record<string, true> = {
  html: true,
  htm: true,
  xhtml: true,
  shtml: true,
  php: true,
  asp: true,
  aspx: true,
  jsp: true,
  cfm: true,
  cgi: true,
  pl: true,
};

/** Longest extension taken for a file type ("pdf", "docx", "tar.gz" ends in "gz"). */
const MAX_EXTENSION = 5;

/**
 * Whether the snapshot text shows a link's target. A named link to another web page is read by its
 * name, as a user reads it, and its target stays in the element's attributes: on real pages targets
 * are over a third of the text. The target is shown when it says what nothing else does: where a link
 * with no name goes, and that a link is not a web page (a `download`, a file such as a PDF, `mailto:`,
 * `tel:` or any other scheme). `javascript:` says neither.
 */
export function showsTarget(shortHref: string, named: boolean, download: boolean): boolean {
  if (shortHref === 'javascript:') return false;
  if (!named || download) return true;
  const lower = strLower(shortHref);
  let path: string;
  if (strStartsWith(lower, '/')) path = lower;
  else if (strStartsWith(lower, 'https://') || strStartsWith(lower, 'http://')) {
    const slash = strIndexOf(lower, '/', strIndexOf(lower, '//') + 2);
    path = slash < 0 ? '' : strSlice(lower, slash);
  } else return true; // another scheme: mailto:, tel:, ftp:, data:
  return isFilePath(path);
}

/** A path whose last segment ends in a file extension that is not a page's (`/report.pdf`, not `/a.html`). */
function isFilePath(path: string): boolean {
  let end = path.length;
  const query = strIndexOf(path, '?');
  const hash = strIndexOf(path, '#');
  if (query >= 0) end = query;
  if (hash >= 0 && hash < end) end = hash;
  const segment = strSlice(path, strLastIndexOf(path, '/', end - 1) + 1, end);
  const dot = strLastIndexOf(segment, '.');
  if (dot < 0) return false;
  const ext = strSlice(segment, dot + 1);
  if (ext.length === 0 || ext.length > MAX_EXTENSION || PAGE_EXTENSIONS[ext] === true) return false;
  let letters = 0;
  for (let i = 0; i < ext.length; i++) {
    const code = strCharCodeAt(ext, i);
    const letter = code >= 97 && code <= 122;
    if (!letter && !(code >= 48 && code <= 57)) return false;
    if (letter) letters++;
  }
  // "/story.12345" is an id, not a file type.
  return letters > 0;
}
