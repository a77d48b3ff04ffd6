// The relay's layers (relay/README.md, "Layers"), as check-boundaries.mjs enforces them on relay/src.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

// The relay's layers, top to bottom: a folder of relay/src imports only folders of a lower layer, and
// none of its own layer but the pairs in SIBLINGS. Files at the root of relay/src are the shared kernel
// (errors, config, logger, ...) that any layer may use, and the wiring (ENTRY) that may use any layer.
export const RELAY_LAYERS = [
  ['http', 'cli'],
  ['app'],
  ['agent', 'retrieve'],
  ['sessions'],
  ['browser', 'gateway', 'model'],
  ['network', 'store', 'limits', 'cluster'],
];
const LAYER_OF = new Map(RELAY_LAYERS.flatMap((names, i) => names.map((name) => [name, RELAY_LAYERS.length - i])));
// The extension driver drives a tab through the gateway, which hands its tabs back to the driver.
const SIBLINGS = new Set(['browser>gateway', 'gateway>browser']);
// The process and package entry points and the bag of everything the HTTP layer uses.
const ENTRY = new Set(['server', 'wiring', 'main', 'index', 'prompt', 'services']);
export const RELAY_SRC = 'relay/src';

/** Why `file` (in relay/src, not a test) may not import `spec`, or undefined when it may. */
export function relayLayerProblem(file, spec) {
  const from = relative(RELAY_SRC, file).split('/');
  const to = relative(RELAY_SRC, join(file, '..', spec)).split('/');
  if (to[0] === '..' || from[0] === to[0]) return undefined;
  const fromDir = from.length > 1 ? from[0] : undefined;
  const toDir = to.length > 1 || existsSync(join(RELAY_SRC, to[0])) ? to[0] : undefined;
  if (!toDir) {
    if (to[0] !== 'services' || fromDir === 'http' || (!fromDir && ENTRY.has(from[0].replace(/\.ts$/, ''))))
      return undefined;
    return 'only src/http and the wiring (server.ts) use the Services bag; give a lower layer the narrow dependencies it needs';
  }
  if (!fromDir) {
    if (ENTRY.has(from[0].replace(/\.ts$/, ''))) return undefined;
    return LAYER_OF.get(toDir) > LAYER_OF.get('sessions')
      ? `the kernel at the root of src (errors, config, logger...) is for every layer; it imports nothing above sessions/, not ${toDir}/`
      : undefined;
  }
  if (fromDir === 'http' && (toDir === 'agent' || toDir === 'retrieve'))
    return `http/ reaches the use cases through app/, never ${toDir}/ directly`;
  const [a, b] = [LAYER_OF.get(fromDir), LAYER_OF.get(toDir)];
  if (a === undefined || b === undefined)
    return `${fromDir}/ or ${toDir}/ has no layer: add it to RELAY_LAYERS and relay/README.md`;
  if (a > b || SIBLINGS.has(`${fromDir}>${toDir}`)) return undefined;
  return a === b
    ? `${fromDir}/ and ${toDir}/ are one layer and stay apart (relay/README.md, "Layers")`
    : `${fromDir}/ is below ${toDir}/ (relay/README.md, "Layers"): a lower layer never imports a higher one`;
}
