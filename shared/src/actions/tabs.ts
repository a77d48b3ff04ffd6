import { z } from 'zod';
import { defineAction } from './define';

/** Makes another of the session's tabs the one the agent works in. */
export const switchTab = defineAction({
  name: 'switch_tab',
  executor: 'driver',
  description: 'Switch to another open tab of this session, by its number in the Tabs list.',
  shape: {
    tab: z.int().min(0).describe('Number of the tab in the Tabs list, the number in [brackets] (the first tab is 0).'),
  },
});

export const tabActions = [switchTab] as const;
