/**
 * "Every interactive element carries an index", checked from outside the runtime: lists the elements a
 * user could operate by selector and role, and looks each up among the snapshot's elements by its box.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PAGE_RUNTIME_SOURCE } from '@tandem/shared/page-runtime';
import type { BrowserContext, Page } from 'playwright-core';

/** What a person can operate: native controls, ARIA widgets, editors, anything made focusable. */
const INTERACTIVE_SELECTOR = [
  'a[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[tabindex]:not([tabindex="-1"])',
  ...[
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'combobox',
    'listbox',
    'textbox',
    'searchbox',
    'slider',
    'spinbutton',
    'treeitem',
  ].map((role) => `[role=${role}]`),
].join(', ');

export interface Coverage {
  /** Visible, uncovered interactive elements of the top document and its open shadow roots. */
  interactive: number;
  /** Those with no snapshot element at the same place. */
  unindexed: number;
  /** A few of the unindexed, as `tag "text"`, to say what was missed. */
  examples: string[];
}

/**
 * Runs in the page (as a string: bench has no DOM types). Takes a full-page snapshot with the runtime and,
 * in the same task (so nothing moves in between), matches every visible interactive element to a
 * snapshot element with the same box. Elements a person cannot reach are not counted: hidden, inert,
 * zero-size, or covered at their center while in the viewport (the runtime leaves those out on purpose).
 */
const PROBE = `(() => {
  const snap = JSON.parse(window.__tandem.snapshotJson({ full_page: true, max_chars: 1000000 }));
  const boxes = snap.elements.filter((e) => e.frame_depth === 0).map((e) => e.box);
  const near = (a, b) => Math.abs(a - b) <= 1;
  let interactive = 0;
  const missed = [];
  // Open shadow roots too: the runtime indexes what is inside them.
  const candidates = [];
  const collect = (root) => {
    candidates.push(...root.querySelectorAll(${JSON.stringify(INTERACTIVE_SELECTOR)}));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) collect(el.shadowRoot);
  };
  collect(document);
  for (const el of candidates) {
    if (el.closest('[inert]')) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) {
      const hit = el.getRootNode().elementFromPoint(cx, cy);
      if (!hit || !(hit === el || el.contains(hit))) continue;
    }
    interactive++;
    const x = Math.round(r.left), y = Math.round(r.top), w = Math.round(r.width), h = Math.round(r.height);
    const found = boxes.some((b) => near(b.x, x) && near(b.y, y) && near(b.width, w) && near(b.height, h));
    if (!found) missed.push(el.localName + ' "' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30) + '"');
  }
  return JSON.stringify({ interactive, unindexed: missed.length, examples: missed.slice(0, 3) });
})()`;

/** A page of `context` to probe with: the runtime is injected before any page script, as the relay does. */
export async function probePage(context: BrowserContext): Promise<Page> {
  await context.addInitScript({ content: PAGE_RUNTIME_SOURCE });
  return context.newPage();
}

/**
 * Counts the interactive elements the snapshot left out, on a page from probePage(); null where the
 * probe itself cannot run (hostile.html breaks the very builtins it uses: JSON.stringify, Array methods).
 */
export async function measureCoverage(page: Page): Promise<Coverage | null> {
  try {
    return JSON.parse(await page.evaluate<string>(PROBE)) as Coverage;
  } catch {
    return null;
  }
}

/** Exactly how many elements the page has, for pages that promise a size. */
export function elementCount(page: Page): Promise<number> {
  return page.evaluate<number>("document.querySelectorAll('*').length");
}

/** Interactive roles in an ariaSnapshot() text, to compare its coverage with the snapshot's indices. */
export const ARIA_INTERACTIVE_ROLES =
  /^\s*- (button|link|textbox|checkbox|radio|combobox|listbox|option|tab|menuitem|switch|slider|spinbutton|searchbox)\b/gm;

/** The fixture site's pages a benchmark can open on their own, as paths (`/form.html`). */
export function fixturePages(): string[] {
  const siteDir = fileURLToPath(new URL('../e2e/fixtures/site/', import.meta.url));
  return readdirSync(siteDir)
    .filter((f) => f.endsWith('.html') && f !== 'frame-inner.html' && f !== 'popup-target.html')
    .map((f) => `/${f}`);
}
