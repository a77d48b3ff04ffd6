import type { BrowserParams } from '@tandem/shared';
import { DEFAULT_VIEWPORT, type Viewport } from './driver';

/** The viewport a request asks for (browser_params), whole pixels, defaults filled in. */
export function viewportOf(params: BrowserParams | undefined): Viewport {
  return {
    width: Math.round(params?.width ?? DEFAULT_VIEWPORT.width),
    height: Math.round(params?.height ?? DEFAULT_VIEWPORT.height),
  };
}
