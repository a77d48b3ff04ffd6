let last = 0;

/**
 * Epoch milliseconds for `created_at`, strictly increasing within the process: lists ordered by it keep
 * the order rows were made in on both backends (Postgres, unlike SQLite, returns ties in no set order).
 */
export function creationTime(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}
