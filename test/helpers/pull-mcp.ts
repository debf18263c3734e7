/** The test MCP skills server as `pull skill:// --mcp` starts it, for the pull tests. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { json, skillctl } from './cli.js';
import type { Lie } from './mcp-skills-server.js';
import { fixture, ROOT } from './paths.js';
import { tempDir } from './tmp.js';

/** The skills the test server serves by default. */
export const SERVED = fixture('mcp-skills', 'served');
export const SERVER = join(ROOT, 'dist', 'test', 'helpers', 'mcp-skills-server.js');

/** The --mcp string that starts the test server over `dir`, lying as told; `count`: the file its count of resources/read answers goes to. */
export function serverCommand(dir: string, lie?: Lie, count?: string): string {
  return [process.execPath, SERVER, '--dir', dir, ...(lie !== undefined ? ['--lie', lie] : []), ...(count !== undefined ? ['--count', count] : [])].map((a) => `'${a}'`).join(' ');
}

/** What `pull --json` of one skill from a lying server ended with. */
export interface LiarPull {
  readonly code: number;
  readonly ok: boolean;
  /** The error findings, in the document's order. */
  readonly errors: readonly { readonly code: string; readonly message: string }[];
  /** stdout and stderr, for assertion messages. */
  readonly said: string;
}

/** `pull skill://pdf-processing/SKILL.md --json` in `project`, from the test server lying as told about a copy of that skill. */
export function pullFromLiar(lie: Lie, project: string): LiarPull {
  const served = tempDir('skillctl-liar-served-');
  cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
  const r = skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(served, lie), '--json'], { cwd: project });
  const doc = json<{ ok: boolean; diagnostics: { code: string; severity: string; message: string }[] }>(r);
  return { code: r.code, ok: doc.ok, errors: doc.diagnostics.filter((d) => d.severity === 'error'), said: r.stdout + r.stderr };
}
