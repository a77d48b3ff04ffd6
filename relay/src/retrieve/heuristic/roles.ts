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
  name: ['name', 'title', 'product', 'product name', 'headline', 'heading', 'label'],
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
  rating: ['rating', 'stars', 'score', 'review score', 'average rating'],
  description: ['description', 'summary', 'snippet', 'excerpt', 'desc', 'blurb', 'subtitle', 'teaser'],
  author: ['author', 'byline', 'writer', 'by', 'creator'],
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

/** Hint words for a role, used against class names, itemprops and data-* keys. */
export const ROLE_HINTS: Record<Role, RegExp> = {
  name: /\b(title|name|headline|product-?name|heading)\b/,
  url: /\b(url|link|permalink)\b/,
  image: /\b(image|img|photo|thumb|thumbnail|picture)\b/,
  price: /\b(price|cost|amount|now|sale|offer)\b/,
  currency: /\b(currency|pricecurrency)\b/,
  date: /\b(date|time|published|posted|datetime|updated|startdate)\b/,
  rating: /\b(rating|stars?|score|ratingvalue)\b/,
  description: /\b(desc|description|summary|snippet|excerpt|teaser|blurb|abstract)\b/,
  author: /\b(author|byline|writer|creator)\b/,
  site_name: /\b(site|publisher|source)\b/,
  text: /\b(body|content|text|article)\b/,
};
