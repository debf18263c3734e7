/** The one JSON document a command prints with --json: 2-space indented, trailing newline. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
