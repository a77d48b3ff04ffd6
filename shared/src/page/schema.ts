/**
 * The snapshot's shape as zod schemas, for whoever carries it over a wire (the extension protocol)
 * and validates it. The runtime itself imports these only as types, so zod stays out of its bundle.
 */
import { z } from 'zod';

export const SnapshotOptions = z
  .object({
    full_page: z
      .boolean()
      .default(false)
      .describe('true serializes the whole page; false only what is in the viewport (the default).'),
    max_chars: z
      .int()
      .min(500)
      .default(40_000)
      .describe('Budget for the LLM text; the least useful text is dropped first, and the text says so.'),
  })
  .meta({ id: 'SnapshotOptions' });
export type SnapshotOptions = z.infer<typeof SnapshotOptions>;

const Tristate = z.union([z.boolean(), z.literal('mixed')]);

export const ElementStates = z
  .object({
    checked: Tristate.optional().describe('Checkbox, radio, switch or aria-checked state.'),
    selected: z.boolean().optional().describe('aria-selected (tabs, options).'),
    expanded: z.boolean().optional().describe('aria-expanded, or an open <details> for a summary.'),
    pressed: Tristate.optional().describe('aria-pressed (toggle buttons).'),
    disabled: z.boolean().optional().describe('Disabled natively or with aria-disabled.'),
    readonly: z.boolean().optional().describe('Read-only field.'),
    required: z.boolean().optional().describe('Required field.'),
    filled: z.boolean().optional().describe('A password field holds a value (the value is never shown).'),
    focused: z.boolean().optional().describe('Has keyboard focus.'),
  })
  .meta({ id: 'ElementStates' });
export type ElementStates = z.infer<typeof ElementStates>;

export const SnapshotBox = z
  .object({
    x: z.number().describe('Left edge, CSS pixels from the left of the top viewport.'),
    y: z.number().describe('Top edge, CSS pixels from the top of the top viewport.'),
    width: z.number().describe('Width in CSS pixels.'),
    height: z.number().describe('Height in CSS pixels.'),
  })
  .meta({ id: 'SnapshotBox' });

/** An element index drawn over a screenshot (set-of-marks), at the element's box. */
export const Mark = z
  .object({
    index: z.int().min(1).describe('The element index in the snapshot.'),
    box: SnapshotBox,
    cover: z
      .boolean()
      .optional()
      .describe(
        'Paint the element over (opaque, no number) instead of outlining it: a field holding a typed secret. Drawn at where the element is at capture time.',
      ),
  })
  .describe('One mark of a set-of-marks screenshot.');
export type Mark = z.infer<typeof Mark>;

export const SnapshotElement = z
  .object({
    index: z.int().min(1).describe('The number the agent uses to act on the element.'),
    tag: z.string().describe('Lower-case tag name.'),
    role: z.string().nullable().describe('The role attribute, if any.'),
    name: z
      .string()
      .describe(
        "Accessible name, as assistive technology computes it: aria-labelledby, aria-label, a wrapping or for= label, placeholder, title; for a form field nothing names, the label-like text beside it; then the text or alt. The snapshot text shows a field's name as label= where the text right before the field does not already say it.",
      ),
    text: z.string().describe('Visible text inside the element, whitespace collapsed and capped.'),
    attributes: z.record(z.string(), z.string()).describe('Whitelisted attributes, values capped at ~100 chars.'),
    states: ElementStates,
    options: z
      .array(z.object({ text: z.string(), value: z.string(), selected: z.boolean() }))
      .optional()
      .describe('For <select>: its options.'),
    scroll: z
      .object({ above_px: z.number(), below_px: z.number() })
      .optional()
      .describe('For scrollable containers and textareas whose text overflows: how much lies above and below.'),
    editable: z
      .boolean()
      .optional()
      .describe('true for a contenteditable root (a rich-text editor): text can be typed into it. Absent otherwise.'),
    is_new: z.boolean().describe('First seen in this snapshot (never true in the first snapshot).'),
    in_viewport: z.boolean().describe('At least partly inside the viewport.'),
    frame_depth: z.int().min(0).describe('0 in the top document, 1 inside an iframe, and so on.'),
    box: SnapshotBox.describe('Border box in top-viewport coordinates.'),
  })
  .meta({ id: 'SnapshotElement' });
export type SnapshotElement = z.infer<typeof SnapshotElement>;

export const Snapshot = z
  .object({
    url: z.string().describe('URL of the document.'),
    title: z.string().describe('Document title.'),
    text: z.string().describe('Compact text for the LLM: page text with `[index]<tag …>label</>` elements.'),
    elements: z.array(SnapshotElement).describe('Every indexed element, in document order.'),
    viewport: z.object({ width: z.number(), height: z.number() }).describe('Viewport size in CSS pixels.'),
    scroll: z
      .object({
        x: z.number(),
        y: z.number(),
        above_px: z.number().describe('Page height above the viewport.'),
        below_px: z.number().describe('Page height below the viewport.'),
        above_pages: z.number().describe('above_px in viewport heights, one decimal.'),
        below_pages: z.number().describe('below_px in viewport heights, one decimal.'),
      })
      .describe('Where the viewport is on the page.'),
    frames: z
      .array(z.object({ src: z.string(), box: SnapshotBox }))
      .describe('Cross-origin iframes: marked, not inlined (the driver may snapshot them separately).'),
    modal: z.boolean().describe('A modal dialog is open; only its content is shown.'),
    truncated: z.boolean().describe('Text was dropped to fit max_chars.'),
    omitted_chars: z.int().min(0).describe('Characters of text dropped to fit max_chars.'),
  })
  .meta({ id: 'Snapshot' });
export type Snapshot = z.infer<typeof Snapshot>;
