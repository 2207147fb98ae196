/**
 * The nearest-rank quantile `q` (0 to 1) of `values`, in any order: the value at rank
 * ⌊q·n⌋ of the sorted list (the largest for q = 1), NaN when there are none. The one rule the
 * benchmarks read their p50 and p99 by.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = isAscending(values) ? values : [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function isAscending(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i += 1) {
    if ((values[i] as number) < (values[i - 1] as number)) return false;
  }
  return true;
}
