import type { Snapshot } from '@tandem/shared';
import type { PlanInput } from '../src/agent/planner';

/** A snapshot with only LLM text, for planner tests that need no browser. */
export const textSnapshot = (text: string): Snapshot => ({
  url: 'https://shop.test/',
  title: 'Shop',
  text,
  elements: [],
  viewport: { width: 1280, height: 800 },
  scroll: { x: 0, y: 0, above_px: 0, below_px: 0, above_pages: 0, below_pages: 0 },
  frames: [],
  modal: false,
  truncated: false,
  omitted_chars: 0,
});

/** A complete PlanInput on a small shop page; tests override what they look at. */
export function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    task: 'Find the price of the red mug',
    step: 1,
    maxSteps: 20,
    snapshot: textSnapshot(
      '[top of page]\n# Shop\n[1]<a href=/mugs>Mugs</a>\n[2]<input type=search placeholder=Search>',
    ),
    url: 'https://shop.test/',
    tabs: [{ index: 0, url: 'https://shop.test/', title: 'Shop', active: true }],
    history: [],
    skills: [],
    mode: 'fast',
    nudges: [],
    ...overrides,
  };
}
