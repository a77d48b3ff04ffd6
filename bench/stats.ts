/** Small helpers shared by the benchmarks: percentiles, a printed table, the results file. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  const columns = Object.keys(rows[0] ?? {});
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const out = [
    `\n${title}`,
    line(columns.map((c) => c.padEnd(width(c)))),
    line(columns.map((c) => '-'.repeat(width(c)))),
    ...rows.map((r) => line(columns.map((c) => String(r[c]).padEnd(width(c))))),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

const RESULTS = new URL('./results.json', import.meta.url);

/** Merges one benchmark's figures into bench/results.json under `name`. */
export function saveResults(name: string, figures: unknown): void {
  const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
  all[name] = { ...(figures as object), measuredAt: new Date().toISOString() };
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
}

/**
 * Proportional set size (KiB) of a process, from /proc (Linux): shared pages are split between the
 * processes sharing them, so a sum over Chromium's processes does not count its libraries 20 times.
 */
export function pssKiB(pid: number): number {
  if (!existsSync('/proc/self/smaps_rollup')) {
    throw new Error('Memory figures need Linux /proc (smaps_rollup); run the benchmark on Linux.');
  }
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0; // the process ended between listing and reading
  }
}

/** Every process below `pid` (children, grandchildren, …), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name may hold spaces and parentheses: the parent pid is the 2nd field after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone already.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, of] of parentOf) {
      if (of === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** A PASS/FAIL cell for a ratio against its target (lower is better). */
export const verdict = (ratio: number, target: number) => (ratio <= target ? 'PASS' : 'FAIL');
