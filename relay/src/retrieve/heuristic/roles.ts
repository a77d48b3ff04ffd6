/** What a requested field name means: one of the roles ludicrous mode recognises, or a plain name. Pure. */

export type Role =
  | 'name'
  | 'url'
  | 'image'
  | 'price'
  | 'currency'
  | 'date'
  | 'rating'
  | 'description'
  | 'author'
  | 'site_name'
  | 'text';

const SYNONYMS: Record<Role, string[]> = {
  name: ['name', 'title', 'product', 'product name', 'headline', 'heading', 'label', 'term', 'item'],
  url: ['url', 'link', 'href', 'permalink', 'product url', 'page', 'source url'],
  image: ['image', 'image url', 'img', 'picture', 'photo', 'thumbnail', 'image src'],
  price: ['price', 'cost', 'amount', 'price amount', 'current price', 'sale price'],
  currency: ['currency', 'price currency', 'currency code'],
  date: [
    'date',
    'published',
    'published date',
    'publish date',
    'date published',
    'time',
    'posted',
    'updated',
    'start date',
    'datetime',
  ],
  rating: ['rating', 'stars', 'score', 'review score', 'average rating', 'rating value', 'points'],
  description: [
    'description',
    'summary',
    'snippet',
    'excerpt',
    'desc',
    'blurb',
    'subtitle',
    'teaser',
    'definition',
    'meaning',
  ],
  author: ['author', 'byline', 'writer', 'by', 'creator', 'user', 'username', 'submitter', 'poster'],
  site_name: ['site', 'site name', 'publisher', 'source'],
  text: ['text', 'body', 'content', 'main text', 'article', 'article text', 'body text', 'full text'],
};

/** "Product_URL", "imageUrl", "published-date" → "product url", "image url", "published date". */
export function normalizeName(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
}

export function roleOf(field: string): Role | null {
  const n = normalizeName(field);
  for (const [role, words] of Object.entries(SYNONYMS) as [Role, string[]][]) if (words.includes(n)) return role;
  // "cover image", "release date", "list price": the last word decides.
  const last = n.split(' ').pop() ?? n;
  for (const [role, words] of Object.entries(SYNONYMS) as [Role, string[]][]) {
    if (role !== 'text' && role !== 'site_name' && words.includes(last)) return role;
  }
  return null;
}

/** Words that name a field in class names and itemprops: the normalized name and its camel/kebab forms. */
export function tokensOf(field: string): string[] {
  const n = normalizeName(field);
  const words = n.split(' ');
  return [...new Set([n, words.join('-'), words.join('_'), words.join(''), ...words.filter((w) => w.length > 3)])];
}

/** Words that name a role in class names, ids, itemprops and data-* keys. */
export const ROLE_WORDS: Record<Role, string[]> = {
  name: ['title', 'name', 'headline', 'productname', 'heading'],
  url: ['url', 'link', 'permalink'],
  image: ['image', 'img', 'photo', 'thumb', 'thumbnail', 'picture'],
  price: ['price', 'cost', 'amount', 'now', 'sale', 'offer'],
  currency: ['currency', 'pricecurrency'],
  date: ['date', 'time', 'published', 'posted', 'datetime', 'updated', 'startdate', 'age'],
  rating: ['rating', 'stars', 'star', 'score', 'ratingvalue', 'points'],
  description: ['desc', 'description', 'summary', 'snippet', 'excerpt', 'teaser', 'blurb', 'abstract'],
  author: ['author', 'byline', 'writer', 'creator', 'user'],
  site_name: ['site', 'publisher', 'source'],
  text: ['body', 'content', 'text', 'article'],
};

/**
 * Whether a hint word (a class, an id) names one of `words`: it is one, its last "-"/"_" segment is
 * one ("product-price"), or it is one of four letters or more behind a short prefix ("hnuser"). No
 * regular expressions: hints are page text.
 */
export function wordNames(word: string, words: readonly string[]): boolean {
  const cut = Math.max(word.lastIndexOf('-'), word.lastIndexOf('_'));
  const last = cut >= 0 ? word.slice(cut + 1) : word;
  for (const w of words) {
    if (word === w || last === w) return true;
    if (w.length >= 4 && word.length > w.length && word.length - w.length <= 2 && word.endsWith(w)) return true;
  }
  return false;
}

/** Whether any of the words in a hint string names one of `words` (see wordNames). */
export function hintNames(hint: string, words: readonly string[]): boolean {
  for (const word of hint.split(/[\s|]+/)) if (word && wordNames(word, words)) return true;
  return false;
}
