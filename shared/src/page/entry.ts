// Entry of the injected bundle: install once per document. Kept apart from index.ts so the
// bundle carries no zod schemas.
import { installRuntime } from './install';

installRuntime();
