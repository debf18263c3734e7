import { visible } from '../../core/visible.js';

/**
 * Rows as columns padded to the widest cell; the last column is not padded, no line ends in spaces.
 * Cells hold names, descriptions and paths from manifests and registries: control characters are
 * made visible.
 */
export function table(given: readonly (readonly string[])[]): string {
  const rows = given.map((r) => r.map(visible));
  const widths = rows[0]?.map((_, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0)) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}
