/** Small helpers shared by the benchmarks: percentiles, a printed table, the results file. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

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
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
