// Shortening a page snapshot's text to a character budget after the page runtime made it: the relay
// only learns a model's context once the prompt is built, so it trims with the runtime's own drop order.
import { fitToBudget, type Line, type LineKind, type Snapshot } from '@tandem/shared';

const ELEMENT = /\*?\[(\d+)\]</g;
const MARKER = /^(?:\[[^\]]*\]|<\/?iframe\b.*)$/;

/** The snapshot's lines with their kind and whether they lie in the viewport (text follows its element). */
export function snapshotLines(snapshot: Snapshot): Line[] {
  const inView = new Map(snapshot.elements.map((e) => [e.index, e.in_viewport]));
  let lastInView = true;
  return snapshot.text.split('\n').map((text): Line => {
    const indices = [...text.matchAll(ELEMENT)].map((m) => Number(m[1]));
    let kind: LineKind = 'text';
    if (indices.length > 0) {
      kind = 'element';
      lastInView = indices.some((i) => inView.get(i) ?? true);
    } else if (MARKER.test(text.trim())) kind = 'marker';
    else if (/^#{1,6} /.test(text)) kind = 'heading';
    return { text, kind, in_viewport: kind === 'marker' ? true : lastInView };
  });
}

/**
 * The snapshot's text in at most `maxChars`: text far from any element and outside the viewport goes
 * first, then nearer text and headings, then elements beyond the viewport, then the viewport's own
 * elements farthest from the rest. The text says what was left out.
 */
export function fitSnapshot(snapshot: Snapshot, maxChars: number): string {
  if (snapshot.text.length <= maxChars) return snapshot.text;
  return fitToBudget(snapshotLines(snapshot), Math.max(0, Math.floor(maxChars))).text;
}
