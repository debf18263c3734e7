/** Rows as columns padded to the widest cell; the last column is not padded, no line ends in spaces. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0)) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}
