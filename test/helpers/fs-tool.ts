/**
 * A python skill for the attack suite that does to the file system what its input says and
 * reports each errno: python, so that nothing but the kernel and the sandbox stands between it and
 * the files. Its input is `{ ops: [[op, path, arg?], ...] }` with op `rename` (path to arg),
 * `mkdir`, or `write` (arg as the file's text); its output `{ ok: "ok,EROFS,..." }`, one result an op.
 */
import { execFileSync } from 'node:child_process';
import { entry, type BundleSpec } from './bundles.js';

/** This host's python, pinned exactly (a pin is major.minor.patch). */
export const PYTHON_VERSION = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).trim();

const MAIN = [
  'import errno, json, os, sys',
  'def act(op, a, b=None):',
  '    try:',
  '        if op == "rename": os.rename(a, b)',
  '        elif op == "mkdir": os.mkdir(a)',
  '        else: open(a, "w").write(b)',
  '        return "ok"',
  '    except OSError as e:',
  '        return errno.errorcode[e.errno]',
  'print(json.dumps({"ok": ",".join(act(*op) for op in json.load(sys.stdin)["ops"])}))',
  '',
].join('\n');

/** A python skill running main.py, asking for `requested`, its output `{ ok }`. */
function pythonBundle(requested: Record<string, string[]>, main: string, inputSchema?: Record<string, unknown>): BundleSpec {
  return {
    entrypoints: [
      entry({
        runtime: 'python',
        runtime_version: PYTHON_VERSION,
        command: 'python3 main.py',
        ...(inputSchema !== undefined ? { input_schema: inputSchema } : {}),
        output_schema: { type: 'object', properties: { ok: { type: 'string' } } },
        requested_permissions: requested,
      }),
    ],
    files: { 'main.py': main },
  };
}

/** The bundle, granted to read and write its working directory's project. */
export function fsToolBundle(): BundleSpec {
  return pythonBundle({ 'fs.read': ['.'], 'fs.write': ['.'] }, MAIN, { type: 'object', properties: { path: {}, ops: { type: 'array' } } });
}

/**
 * A python skill granted to read `granted` that answers `{ ok: <the text of file> }`, or the name
 * of the error opening it (`FileNotFoundError`, `PermissionError`).
 */
export function readerBundle(granted: string, file: string): BundleSpec {
  return pythonBundle({ 'fs.read': [granted] }, `import json\ntry:\n    text = open(${JSON.stringify(file)}).read()\nexcept OSError as e:\n    text = type(e).__name__\nprint(json.dumps({"ok": text}))\n`);
}
