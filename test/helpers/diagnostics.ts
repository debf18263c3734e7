/** The distinct codes of the error findings among `ds`, sorted: what most tests compare. */
export function errorCodesOf(ds: readonly { readonly code: string; readonly severity: string }[]): string[] {
  return [...new Set(ds.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
}
