/**
 * The response shapes of the ten built-in skills (seed 002), as the unit tests (test/skills) and
 * the end-to-end tests (test/cli/run-builtins) read them, and small helpers both use.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ReadText {
  path: string;
  text: string;
  bytes_read: number;
  truncated: boolean;
  normalized_encoding: string;
}

export interface Tree {
  root: string;
  entries: { path: string; kind: string; bytes?: number }[];
  truncated: boolean;
}

export interface Patched {
  applied: boolean;
  files_changed: number;
  hunks_applied: number;
  rejects: { file: string; hunk: number; reason: string; detail: string }[];
}

export interface Exec {
  exit_code: number;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  duration_ms: number;
}

export interface Found {
  matches: { file: string; line: number; column: number; match: string; context_before: string; context_after: string }[];
  truncated: boolean;
}

export interface Diff {
  diff: string;
  bytes: number;
  truncated: boolean;
}

export interface Fetched {
  url: string;
  final_url: string;
  status: number;
  mime: string;
  text: string;
  bytes: number;
  truncated: boolean;
}

export interface Validated {
  valid: boolean;
  errors: { pointer: string; message: string }[];
}

export interface Extracted {
  text: string;
  hints: { title?: string; sections: string[] };
}

/** Whether ripgrep is installed (search.ripgrep then has two paths to compare). */
export function hasRipgrep(): boolean {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Every regular file under `dir` (relative path -> UTF-8 content), to show what a skill changed. */
export async function fileContents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) out[join(f.parentPath, f.name).slice(dir.length + 1)] = await readFile(join(f.parentPath, f.name), 'utf8');
  }
  return out;
}
