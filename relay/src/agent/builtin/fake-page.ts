import type { Action, Snapshot, SnapshotElement } from '@tandem/shared';

/** For tests: an element with sensible defaults (visible, enabled, stacked down the page). */
export function el(index: number, tag: string, name: string, extra: Partial<SnapshotElement> = {}): SnapshotElement {
  return {
    index,
    tag,
    role: null,
    name,
    text: tag === 'input' || tag === 'select' || tag === 'textarea' ? '' : name,
    attributes: {},
    states: {},
    is_new: false,
    in_viewport: true,
    frame_depth: 0,
    box: { x: 20, y: index * 40, width: 200, height: 30 },
    ...extra,
  };
}

/** For tests: a snapshot of these elements and lines of text. */
export function page(elements: SnapshotElement[], text = '', extra: Partial<Snapshot> = {}): Snapshot {
  return {
    url: 'http://site.test/page.html',
    title: 'Test page',
    text: text || elements.map((e) => `[${e.index}]<${e.tag}>${e.name}</>`).join('\n'),
    elements,
    viewport: { width: 1280, height: 800 },
    scroll: { x: 0, y: 0, above_px: 0, below_px: 0, above_pages: 0, below_pages: 0 },
    frames: [],
    modal: false,
    truncated: false,
    omitted_chars: 0,
    ...extra,
  };
}

/** For tests: the page after these actions did what they should (typed values, ticks, chosen options). */
export function applied(snapshot: Snapshot, actions: Action[]): Snapshot {
  const elements = snapshot.elements.map((e) => {
    const copy: SnapshotElement = { ...e, attributes: { ...e.attributes }, states: { ...e.states } };
    for (const a of actions) {
      if (!('index' in a) || a.index !== e.index) continue;
      if (a.action === 'type') copy.attributes.value = a.text;
      if (a.action === 'check') copy.states.checked = a.checked;
      if (a.action === 'select_option' && copy.options) {
        copy.options = copy.options.map((o) => ({ ...o, selected: o.text === a.option }));
      }
    }
    return copy;
  });
  return { ...snapshot, elements };
}
