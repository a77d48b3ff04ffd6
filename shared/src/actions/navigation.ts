import { z } from 'zod';
import { defineAction } from './define';

/** Loads a URL in the current tab. */
export const navigate = defineAction({
  name: 'navigate',
  executor: 'driver',
  description: 'Open a URL in the current tab.',
  shape: {
    url: z.string().min(1).describe('Absolute http(s) URL to open, e.g. "https://example.com/login".'),
  },
});

/** History back, like the browser's back button. */
export const goBack = defineAction({
  name: 'go_back',
  executor: 'driver',
  description: "Go back to the previous page in the tab's history.",
  shape: {},
});

/** History forward, like the browser's forward button. */
export const goForward = defineAction({
  name: 'go_forward',
  executor: 'driver',
  description: "Go forward to the next page in the tab's history.",
  shape: {},
});

export const navigationActions = [navigate, goBack, goForward] as const;
