import { installRuntime } from '@tandem/shared/page';

// The shared page runtime, injected into a session tab with chrome.scripting.executeScript (isolated
// world, so the page cannot patch the builtins it uses). Installing twice keeps the first instance.
export default defineUnlistedScript(() => {
  installRuntime(window);
});
