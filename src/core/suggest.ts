/** Edit distance with an early exit, for "did you mean" hints on misspelt field names. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The closest candidate within a third of the word's length, if any. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const max = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestD = max + 1;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase(), max);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
