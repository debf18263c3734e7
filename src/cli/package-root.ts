import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

function isSkillctlRoot(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'skillctl';
  } catch {
    return false;
  }
}

let cached: string | undefined;

/**
 * The root of the installed skillctl package (holding manifests/ and schemas/): the nearest
 * ancestor of this module, or else of the running script, whose package.json names skillctl.
 * The CLI is bundled into dist/ and dist/cmd/, so the module's own directory is the reliable start.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  const starts = [typeof __dirname === 'string' ? __dirname : undefined, process.argv[1] !== undefined && existsSync(process.argv[1]) ? dirname(realpathSync(process.argv[1])) : undefined];
  for (const start of starts) {
    if (start === undefined) continue;
    for (let dir = start; ; dir = dirname(dir)) {
      if (isSkillctlRoot(dir)) return (cached = dir);
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error('cannot find the skillctl package root (package.json named skillctl)');
}
