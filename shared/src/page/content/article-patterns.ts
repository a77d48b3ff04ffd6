/**
 * Class-name and id patterns that say what a block of a page is for, generic across sites (the
 * vocabulary Readability-style extractors share): boilerplate ("comment", "sidebar", "share"), the
 * body ("article", "content", "post"), a byline. Matched as lower-case substrings, without regular
 * expressions (a page may patch RegExp).
 */
import { strIndexOf } from '../intrinsics';

/** Blocks that are almost never the article: comments, menus, footers, related links, sharing. */
const UNLIKELY = [
  '-ad-',
  'ai2html',
  'banner',
  'breadcrumbs',
  'combx',
  'comment',
  'community',
  'cover-wrap',
  'disqus',
  'extra',
  'footer',
  'gdpr',
  'header',
  'legends',
  'menu',
  'related',
  'remark',
  'replies',
  'rss',
  'shoutbox',
  'sidebar',
  'skyscraper',
  'social',
  'sponsor',
  'supplemental',
  'ad-break',
  'agegate',
  'pagination',
  'pager',
  'popup',
  'yom-remote',
];
/** ...unless the name also says it holds content. */
const MAYBE = ['and', 'article', 'body', 'column', 'content', 'main', 'shadow'];
const POSITIVE = [
  'article',
  'body',
  'content',
  'entry',
  'hentry',
  'h-entry',
  'main',
  'page',
  'pagination',
  'post',
  'text',
  'blog',
  'story',
];
const NEGATIVE = [
  '-ad-',
  'hidden',
  'banner',
  'combx',
  'comment',
  'com-',
  'contact',
  'footer',
  'gdpr',
  'masthead',
  'media',
  'meta',
  'outbrain',
  'promo',
  'related',
  'scroll',
  'share',
  'shoutbox',
  'sidebar',
  'skyscraper',
  'sponsor',
  'shopping',
  'tags',
  'widget',
];
const BYLINE = ['byline', 'author', 'dateline', 'writtenby', 'p-author'];
/** ARIA roles of page furniture. */
export const UNLIKELY_ROLES: Record<string, true> = {
  menu: true,
  menubar: true,
  complementary: true,
  navigation: true,
  alert: true,
  alertdialog: true,
  dialog: true,
};

function containsAny(name: string, words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) if (strIndexOf(name, words[i] as string) >= 0) return true;
  return false;
}

/** `name` is the lower-cased class and id of an element, space-separated. */
export const looksUnlikely = (name: string): boolean => containsAny(name, UNLIKELY) && !containsAny(name, MAYBE);
export const looksPositive = (name: string): boolean => containsAny(name, POSITIVE);
export const looksNegative = (name: string): boolean => containsAny(name, NEGATIVE);
export const looksLikeByline = (name: string): boolean => containsAny(name, BYLINE);

/** "share", "sharedaddy" as a whole word of a class or id (not "shared-folder"). */
export function looksLikeSharing(name: string): boolean {
  for (let at = strIndexOf(name, 'share'); at >= 0; at = strIndexOf(name, 'share', at + 1)) {
    const before = at === 0 ? ' ' : (name[at - 1] as string);
    let end = at + 5;
    if (name[end] === 'd' && name[end + 1] === 'a') end = strIndexOf(name, 'sharedaddy', at) === at ? at + 10 : end;
    const after = end >= name.length ? ' ' : (name[end] as string);
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

function isWordChar(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}
