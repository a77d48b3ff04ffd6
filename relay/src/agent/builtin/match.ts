import type { Snapshot, SnapshotElement } from '@tandem/shared';
import { kindMatches } from './elements';
import type { Target, TargetKind } from './substeps';
import { textScore, words } from './text';

/** A point on the page the last action happened at: ties go to the element nearest to it. */
export interface Point {
  x: number;
  y: number;
}

export interface MatchOptions {
  /** Only these elements can be the target (e.g. fields for typing). */
  accept?: (e: SnapshotElement) => boolean;
  /** Elements to count as less likely (one that failed before), by `elementKey`. */
  avoid?: string[];
  /** Prefer elements that just appeared (the options of a dropdown that was just opened). */
  preferNew?: boolean;
  anchor?: Point | undefined;
  /** Lowest score that counts as a match (default 0.5). */
  threshold?: number;
}

export interface Match {
  element: SnapshotElement;
  score: number;
}

/** A name for an element that survives a new snapshot (indices may change). */
export function elementKey(e: SnapshotElement): string {
  return `${e.tag}|${e.name}`;
}

/** The texts a user might call an element by, each with how much to trust a match on it. */
export function labelsOf(e: SnapshotElement): [string, number][] {
  const a = e.attributes;
  let name = e.name;
  if (e.options?.length) name = name.replace(e.options.map((o) => o.text).join(''), '').trim();
  const labels: [string, number][] = [
    [name, 1],
    [e.text, 1],
    [a['aria-label'] ?? '', 1],
    [a.placeholder ?? '', 0.95],
    [a.alt ?? '', 0.9],
    [a.title ?? '', 0.85],
    [(a.name ?? '').replace(/[_-]+/g, ' '), 0.85],
    [a.hint ?? '', 0.8],
    [a.value ?? '', e.tag === 'input' && /^(?:submit|button|reset)$/.test(a.type ?? '') ? 1 : 0.75],
    [(a.href ?? '').replace(/^.*\//, '').replace(/\.\w+$|[?#].*$/g, ''), 0.5],
  ];
  return labels.filter(([text]) => text.trim() !== '');
}

/** How well the element fits the target's words and kind, before ties are broken. */
export function scoreElement(e: SnapshotElement, target: Target): number {
  let best = 0;
  for (const [label, weight] of labelsOf(e)) best = Math.max(best, textScore(target.text, label) * weight);
  if (best === 0) return 0;
  if (target.kind && kindMatches(e, target.kind)) best += 0.1;
  return best;
}

function distance(e: SnapshotElement, anchor: Point | undefined): number {
  if (!anchor) return 0;
  const x = e.box.x + e.box.width / 2 - anchor.x;
  const y = e.box.y + e.box.height / 2 - anchor.y;
  return Math.min(1, Math.hypot(x, y) / 2000);
}

/** Every acceptable element with its score, best first: visible, enabled, new and near elements win ties. */
export function rankElements(snapshot: Snapshot, target: Target, options: MatchOptions = {}): Match[] {
  const ranked: Match[] = [];
  for (const e of snapshot.elements) {
    if (options.accept && !options.accept(e)) continue;
    let score = scoreElement(e, target);
    if (score === 0) continue;
    if (e.states.disabled) score -= 0.3;
    if (e.in_viewport) score += 0.03;
    if (options.preferNew && e.is_new) score += 0.1;
    if (options.avoid?.includes(elementKey(e))) score -= 0.5;
    score -= 0.03 * distance(e, options.anchor);
    ranked.push({ element: e, score });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** Elements of the kind a target names, in page order, visible ones first when there are several. */
export function elementsOfKind(snapshot: Snapshot, kind: TargetKind, options: MatchOptions = {}): SnapshotElement[] {
  return snapshot.elements.filter(
    (e) => kindMatches(e, kind) && (!options.accept || options.accept(e)) && !options.avoid?.includes(elementKey(e)),
  );
}

/** The nth of a list (1-based; negative counts from the end). */
export function nth<T>(list: T[], ordinal: number): T | undefined {
  return ordinal < 0 ? list.at(ordinal) : list[ordinal - 1];
}

/**
 * The element the target names, or undefined when nothing matches well enough. A target named only by
 * its kind ("the button", "the 2nd checkbox") is the nth element of that kind, or the only one.
 */
export function findElement(snapshot: Snapshot, target: Target, options: MatchOptions = {}): Match | undefined {
  const threshold = options.threshold ?? 0.5;
  if (target.text === '' && target.kind) {
    if (target.kind === 'result') return nthResult(snapshot, target.ordinal ?? 1);
    const all = elementsOfKind(snapshot, target.kind, options);
    const shown = all.filter((e) => e.in_viewport);
    const pool = shown.length > 0 && target.ordinal === undefined ? shown : all;
    const picked = target.ordinal !== undefined ? nth(all, target.ordinal) : pool.length === 1 ? pool[0] : undefined;
    return picked ? { element: picked, score: 1 } : undefined;
  }
  const ranked = rankElements(snapshot, target, options).filter((m) => m.score >= threshold);
  if (target.ordinal === undefined) return ranked[0];
  const top = ranked[0]?.score ?? 0;
  const close = ranked.filter((m) => m.score >= top - 0.15);
  const inOrder = snapshot.elements.filter((e) => close.some((m) => m.element === e));
  const picked = nth(inOrder, target.ordinal);
  return picked ? close.find((m) => m.element === picked) : undefined;
}

/** Links that page through results ("2", "Next", ">", "»"): never a result themselves. */
const PAGER =
  /^(?:\d{1,3}|next|next page|previous|prev|previous page|first|last|older|newer|more|[<>‹›«»←→]|<<|>>|\.\.\.|…)$/i;
export const isPager = (e: SnapshotElement) => PAGER.test(e.text.trim());

/** The results on this page: links after the page's last text field (the search form), pagers left out. */
export function resultLinks(snapshot: Snapshot): SnapshotElement[] {
  const elements = snapshot.elements;
  let start = 0;
  elements.forEach((e, i) => {
    if (e.tag === 'input' || e.tag === 'textarea' || e.tag === 'select') start = i + 1;
  });
  const isLink = (e: SnapshotElement) => (e.tag === 'a' || e.role === 'link') && !isPager(e);
  const links = elements.slice(start).filter((e) => isLink(e) && words(e.text).length > 0);
  return links.length > 0 ? links : elements.filter(isLink);
}

/** "the first result": the nth result link, in page order. */
function nthResult(snapshot: Snapshot, ordinal: number): Match | undefined {
  const picked = nth(resultLinks(snapshot), ordinal);
  return picked ? { element: picked, score: 1 } : undefined;
}
