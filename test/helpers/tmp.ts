import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after } from 'node:test';
import { scratchRoot } from '../../src/core/run/scratch-root.js';

/** A fresh temporary directory, removed when the test file finishes. */
export function tempDir(prefix = 'skillctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * What runs left in a temporary directory `dir`: its entries, with those of skillctl's own
 * directory there (scratch-root.ts), which runs make and keep, listed inside it.
 */
export async function leftIn(dir: string): Promise<string[]> {
  const own = scratchRoot(dir);
  const top = (await readdir(dir)).filter((e) => join(dir, e) !== own);
  const inside = existsSync(own) ? (await readdir(own)).map((e) => join(basename(own), e)) : [];
  return [...top, ...inside];
}
