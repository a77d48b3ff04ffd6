/** Bounded parallelism with a one-line progress bar on a terminal (stderr), silent otherwise. */

export interface Progress {
  /** Marks one job done; `label` says which, `ok` colours the tally. */
  done(label: string, ok: boolean): void;
  /** Clears the bar (before tables are printed). */
  end(): void;
}

const BAR_WIDTH = 24;

/** A progress bar for `total` jobs of `suite`; a no-op when stderr is not a terminal. */
export function progressBar(suite: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total === 0) return { done() {}, end() {} };
  let finished = 0;
  let failed = 0;
  const started = Date.now();
  const draw = (label: string) => {
    const filled = Math.round((BAR_WIDTH * finished) / total);
    const seconds = Math.round((Date.now() - started) / 1000);
    const line = `${suite} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${finished}/${total} ${failed ? `${failed} failed ` : ''}${seconds}s ${label}`;
    const width = (stream.columns ?? 100) - 1;
    stream.write(`\r${line.length > width ? line.slice(0, width) : line.padEnd(width)}`);
  };
  draw('');
  return {
    done(label, ok) {
      finished++;
      if (!ok) failed++;
      draw(label);
    },
    end() {
      stream.write(`\r${' '.repeat((stream.columns ?? 100) - 1)}\r`);
    },
  };
}

/** Runs `job` over `inputs` with at most `parallel` at once; results keep the input order. */
export async function runPool<I, O>(inputs: I[], parallel: number, job: (input: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      results[i] = await job(inputs[i] as I);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, inputs.length)) }, worker));
  return results;
}
