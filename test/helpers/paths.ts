import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root (tests run from dist/test/..., three levels below it). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = join(ROOT, 'fixtures');
export const BIN = join(ROOT, 'bin', 'skillctl.js');

export function fixture(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}
