import { posix } from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { commandArgv } from '../model.js';
import type { Rule } from './rule.js';

const INTERPRETERS: Record<string, readonly string[]> = {
  node: ['node'],
  python: ['python', 'python3'],
};

/** Why `p` (bundle-relative) is not inside the bundle, or undefined when it is. */
function escapes(p: string): string | undefined {
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return 'is an absolute path';
  if (p.includes('\\')) return 'uses \\ as a separator';
  if (/[\u0000-\u001f]/.test(p)) return 'contains a control character';
  const norm = posix.normalize(p);
  if (norm === '..' || norm.startsWith('../')) return 'leaves the bundle';
  return undefined;
}

export const bundlePaths: Rule = {
  name: 'bundle-paths',
  check({ entrypoints, files }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer } of entrypoints) {
      const workingDirectory = ep.working_directory;
      const wd = workingDirectory !== undefined ? escapes(workingDirectory) : undefined;
      if (workingDirectory !== undefined && wd !== undefined) {
        out.push(
          diag('PATH_ESCAPES_BUNDLE', `working_directory ${JSON.stringify(workingDirectory)} ${wd}`, {
            pointer: `${pointer}/working_directory`,
            hint: 'use a path relative to the bundle root, such as .',
          }),
        );
      }
      // Without a readable command and runtime there is no script to look for.
      if (ep.command === undefined || ep.runtime === undefined) continue;
      const argv = commandArgv(ep.command);
      const at = `${pointer}/command`;
      if (ep.runtime === 'builtin') {
        if (argv.length !== 1 || !/^builtin:[a-z0-9]+(?:[._-][a-z0-9]+)*$/.test(argv[0] as string)) {
          out.push(diag('COMMAND_INVALID', 'a builtin entrypoint names its implementation as builtin:<skill_id>', { pointer: at }));
        }
        continue;
      }
      if (ep.runtime === 'container') continue; // the command runs inside the image
      // A WASI command's arguments follow its export: <module>.wasm _start [arg...].
      if (ep.runtime === 'wasm' && ((argv.length > 2 && argv[1] !== '_start') || !(argv[0] as string).endsWith('.wasm'))) {
        out.push(diag('COMMAND_INVALID', 'a wasm entrypoint names its module and, optionally, the export to call: <module>.wasm [export], or <module>.wasm _start [arg...] for a WASI command', { pointer: at }));
        continue;
      }
      const interp = INTERPRETERS[ep.runtime];
      // A wasm module is the command itself; its second word is the export to call.
      const scriptIndex = interp !== undefined && interp.includes(argv[0] as string) ? 1 : 0;
      const script = argv[scriptIndex];
      if (script === undefined) {
        out.push(diag('COMMAND_INVALID', `command names no ${ep.runtime} script to run`, { pointer: at }));
        continue;
      }
      const looksLikePath = interp !== undefined || ep.runtime === 'wasm' || script.includes('/');
      if (!looksLikePath) continue; // a program from PATH; the permissions rule checks exec
      const why = escapes(script) ?? (workingDirectory !== undefined && wd === undefined ? escapes(posix.join(workingDirectory, script)) : undefined);
      if (why !== undefined) {
        out.push(
          diag('PATH_ESCAPES_BUNDLE', `command path ${JSON.stringify(script)} ${why}`, {
            pointer: at,
            hint: 'ship the script in the bundle and name it relative to the bundle root',
          }),
        );
        continue;
      }
      if (files !== undefined && workingDirectory !== undefined && wd === undefined) {
        const resolved = posix.normalize(posix.join(workingDirectory, script));
        if (!files.some((f) => f.path === resolved)) {
          out.push(
            diag('COMMAND_INVALID', `command script ${JSON.stringify(resolved)} is not a file in the bundle`, {
              pointer: at,
            }),
          );
        }
      }
    }
    return out;
  },
};
