/**
 * The ids of the built-in skills, without their code: the run checks that `builtin:<id>` exists
 * before it starts the worker thread that loads them (index.ts; a test keeps both lists equal).
 */
export const BUILTIN_IDS: ReadonlySet<string> = new Set([
  'extract.text',
  'fs.read_text',
  'fs.read_tree',
  'fs.write_patch',
  'git.diff',
  'git.status',
  'http.fetch_text',
  'json.validate',
  'search.ripgrep',
  'shell.exec_safe',
]);
