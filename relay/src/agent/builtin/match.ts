import type { Snapshot, SnapshotElement } from '@tandem/shared';
import { kindMatches } from './elements';
import type { Target } from './substeps';
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

const GENERIC_RESULT = /^(?:results?|search results?|items?|products?|entry|entries|articles?|hits?)$/i;
/** Words that name only a kind ("the second link"): the ordinal then counts elements of that kind. */
const GENERIC_KIND = /^(?:links?|buttons?|tabs?|check ?box(?:es)?|box(?:es)?|fields?|options?|menu ?items?)$/i;

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

/** The element the target names, or undefined when nothing matches well enough. */
export function findElement(snapshot: Snapshot, target: Target, options: MatchOptions = {}): Match | undefined {
  const threshold = options.threshold ?? 0.5;
  if (target.ordinal !== undefined && target.kind === 'result' && GENERIC_RESULT.test(target.text)) {
    return nthResult(snapshot, target.ordinal);
  }
  if (target.ordinal !== undefined && target.kind && GENERIC_KIND.test(target.text)) {
    const kind = target.kind;
    const all = snapshot.elements.filter((e) => kindMatches(e, kind) && (!options.accept || options.accept(e)));
    const picked = target.ordinal < 0 ? all.at(target.ordinal) : all[target.ordinal - 1];
    return picked ? { element: picked, score: 1 } : undefined;
  }
  const ranked = rankElements(snapshot, target, options).filter((m) => m.score >= threshold);
  if (target.ordinal === undefined) return ranked[0];
  const top = ranked[0]?.score ?? 0;
  const close = ranked.filter((m) => m.score >= top - 0.15);
  const inOrder = snapshot.elements.filter((e) => close.some((m) => m.element === e));
  const picked = target.ordinal < 0 ? inOrder.at(target.ordinal) : inOrder[target.ordinal - 1];
  return picked ? close.find((m) => m.element === picked) : undefined;
}

/** "the first result": the nth link after the page's last text field (the search form), in page order. */
function nthResult(snapshot: Snapshot, ordinal: number): Match | undefined {
  const elements = snapshot.elements;
  let start = 0;
  elements.forEach((e, i) => {
    if (e.tag === 'input' || e.tag === 'textarea' || e.tag === 'select') start = i + 1;
  });
  let links = elements.slice(start).filter((e) => e.tag === 'a' && words(e.text).length > 0);
  if (links.length === 0) links = elements.filter((e) => e.tag === 'a');
  const picked = ordinal < 0 ? links.at(ordinal) : links[ordinal - 1];
  return picked ? { element: picked, score: 1 } : undefined;
}
