// Fails when a package imports across a boundary DESIGN.md §1 forbids:
// shared imports no other package; relay and extension never import each other (they meet in shared/src/protocol);
// other packages import @tandem/* only through its public entry points; the page runtime imports no Node modules;
// shared code outside shared/src/page uses no DOM globals (window, document): it runs in the relay too.
// Inside relay/src, the layers of relay/README.md ("Layers"): see relay-layers.mjs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RELAY_SRC, relayLayerProblem } from './relay-layers.mjs';

// bench/, eval/ and scripts/ are tools, not packages: they may reuse each other and a package's test
// fixtures, never its src/.
const TOOLS = ['bench', 'eval', 'scripts'];
const SKIP = new Set(['node_modules', '.output', '.wxt', 'dist', 'test-results']);
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) files.push(path);
  }
};
for (const pkg of ['shared', 'relay', 'extension', 'e2e', ...TOOLS]) walk(pkg);

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const problems = [];
for (const file of files) {
  const pkg = file.split('/')[0];
  const isTest = /(\.test\.ts|\/test\/)/.test(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    const say = (why) => problems.push(`${file}: imports "${spec}": ${why}`);
    if (spec.startsWith('.')) {
      const layer = file.startsWith(`${RELAY_SRC}/`) && !isTest ? relayLayerProblem(file, spec) : undefined;
      if (layer) say(layer);
      const [target, area] = relative('.', join(file, '..', spec)).split('/');
      const tool = TOOLS.includes(pkg);
      if (target !== pkg && !(tool && (area === 'test' || TOOLS.includes(target))))
        say(`reaches into ${target}/ by path; import it as @tandem/${target}`);
      continue;
    }
    const other = /^@tandem\/([\w-]+)(\/.*)?$/.exec(spec);
    if (other) {
      const [, target] = other;
      if (pkg === 'shared' && !isTest) say('shared imports nothing of the other packages');
      if ((pkg === 'relay' && target === 'extension') || (pkg === 'extension' && target === 'relay')) {
        say('the relay and the extension meet only in shared/src/protocol');
      }
      continue;
    }
    if (file.startsWith('shared/src/page/') && /^(node:|fs$|path$|http$)/.test(spec))
      say('the page runtime runs in a web page');
    if (file.startsWith('shared/src/') && !file.startsWith('shared/src/page/') && spec.startsWith('node:')) {
      say('shared code runs in the extension too: no Node modules');
    }
  }
}
// Comments and string literals are blanked first, so prose about "the window" is not a use.
const DOM_GLOBAL = /(?<![\w$.'"`])(window|document)(?![\w$])/g;
const blank = (text) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, "''");
for (const file of files) {
  if (!file.startsWith('shared/src/') || file.startsWith('shared/src/page/') || /\.test\.ts$/.test(file)) continue;
  const lines = blank(readFileSync(file, 'utf8')).split('\n');
  lines.forEach((line, i) => {
    for (const match of line.matchAll(DOM_GLOBAL))
      problems.push(
        `${file}:${i + 1}: uses "${match[1]}": DOM globals belong in shared/src/page, the only shared code that runs in a page`,
      );
  });
}
if (problems.length) {
  process.stderr.write(`Package boundaries crossed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`boundaries: ${files.length} files checked, no crossings\n`);
