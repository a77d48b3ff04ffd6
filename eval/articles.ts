/**
 * Suite (b): article pages in Mozilla Readability's test-page format (`<case>/source.html`,
 * `expected.html`, `expected-metadata.json`). Each source page is served on loopback as saved: its
 * scripts do not run and every off-machine resource is refused by a Content-Security-Policy header,
 * so a load never waits on the network. Retrieve reads the metadata with `fields` and the body with
 * `format: "markdown"`; both are compared with the reference (rules in text.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { RelayClient } from './relay';
import { type CorpusServer, startServer } from './server';
import { htmlText, markdownText, sameText, tokenF1, words } from './text';

export interface ArticleCase {
  name: string;
  dir: string;
  title: string | null;
  byline: string | null;
  readerable: boolean;
}

/** The cases of a Readability-format folder (or the one case the folder is). */
export function findArticleCases(dir: string): ArticleCase[] {
  const given = resolve(dir);
  const dirs = existsSync(join(given, 'source.html'))
    ? [given]
    : readdirSync(given, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(given, d.name, 'source.html')))
        .map((d) => join(given, d.name))
        .sort();
  if (dirs.length === 0) {
    throw new Error(
      `${dir} holds no article cases: expected <case>/source.html, expected.html and expected-metadata.json (the "test/test-pages" folder of github.com/mozilla/readability).`,
    );
  }
  return dirs.map((caseDir) => {
    const metaPath = join(caseDir, 'expected-metadata.json');
    const meta = existsSync(metaPath)
      ? (JSON.parse(readFileSync(metaPath, 'utf8')) as {
          title?: string | null;
          byline?: string | null;
          readerable?: boolean;
        })
      : {};
    return {
      name: basename(caseDir),
      dir: caseDir,
      title: meta.title ?? null,
      byline: meta.byline ?? null,
      readerable: meta.readerable !== false,
    };
  });
}

/**
 * Everything from this origin (styles, images, fonts) may load; scripts never run; nothing leaves
 * the machine (off-origin URLs are refused before any request is made).
 */
const CSP = "default-src 'self' data: blob: 'unsafe-inline'; script-src 'none'; object-src 'none'; frame-src 'none'";

export async function serveArticles(cases: ArticleCase[]): Promise<CorpusServer> {
  const byName = new Map(cases.map((c) => [c.name, c]));
  return startServer(async (url, _req, res) => {
    const match = /^\/a\/([^/]+)\/$/.exec(url.pathname);
    const found = match && byName.get(decodeURIComponent(match[1] ?? ''));
    if (!found) return false;
    // A meta refresh would take the page away from the saved copy.
    const html = readFileSync(join(found.dir, 'source.html'), 'utf8').replace(
      /http-equiv=(["']?)refresh/gi,
      'http-equiv=$1x-refresh',
    );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP });
    res.end(html);
    return true;
  });
}

export interface ArticleResult {
  case: string;
  title: { got: unknown; expected: string | null; ok: boolean };
  byline: { got: unknown; expected: string | null; ok: boolean };
  /** Token F1 of the Markdown against expected.html's text. */
  f1: number;
  /** Retrieve with fields on a new session: page load plus extraction. */
  ms: number;
  /** Retrieve with format markdown on the loaded page. */
  markdownMs: number;
  error?: string;
}

/** The fields the harness asks for, as a client would name them. */
export const ARTICLE_FIELDS = ['title', 'author', 'published', 'site_name'];

export interface ArticleOptions {
  mode?: string | undefined;
}

export async function runArticle(
  relay: RelayClient,
  server: CorpusServer,
  item: ArticleCase,
  options: ArticleOptions,
): Promise<ArticleResult> {
  const result: ArticleResult = {
    case: item.name,
    title: { got: null, expected: item.title, ok: false },
    byline: { got: null, expected: item.byline, ok: false },
    f1: 0,
    ms: 0,
    markdownMs: 0,
  };
  let sessionId: string | undefined;
  try {
    let t = performance.now();
    const data = await relay.call<{ session_id: string; data: Record<string, unknown>[] }>('POST', '/v1/web/retrieve', {
      cmd: 'the article: its title, author, publication date and site name',
      url: `${server.origin}/a/${encodeURIComponent(item.name)}/`,
      fields: ARTICLE_FIELDS,
      max_items: 1,
      ...(options.mode ? { mode: options.mode } : {}),
    });
    result.ms = performance.now() - t;
    sessionId = data.session_id;
    const first = data.data[0] ?? {};
    result.title.got = first.title ?? null;
    result.byline.got = first.author ?? null;
    result.title.ok = sameText(result.title.got, item.title);
    result.byline.ok = sameText(result.byline.got, item.byline);
    // The Markdown of the main content never comes from a model: ludicrous mode skips a useless call.
    t = performance.now();
    const markdown = await relay.call<{ message: string }>('POST', '/v1/web/retrieve', {
      cmd: 'the article',
      session_id: sessionId,
      format: 'markdown',
      mode: 'ludicrous',
    });
    result.markdownMs = performance.now() - t;
    const expected = words(htmlText(readFileSync(join(item.dir, 'expected.html'), 'utf8')));
    result.f1 = tokenF1(words(markdownText(markdown.message)), expected);
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    if (sessionId) await relay.call('DELETE', `/v1/web/session/${sessionId}`).catch(() => undefined);
  }
  return result;
}
