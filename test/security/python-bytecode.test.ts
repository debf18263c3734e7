// Threat: a python skill whose folder holds compiled code that is not its source (a .pyc in __pycache__ that python runs in place of the .py a reviewer reads).
// A pull request adds or changes a skill: `helper.py` reads as harmless, and
// `__pycache__/helper.cpython-3XX.pyc`, a binary file beside it, is compiled from other code,
// as an unchecked hash-based .pyc (PEP 552), which python loads without looking at its source.
// The lock pins both files' digests, verify-pins passes, and the run ran the .pyc: the code that
// ran was never the code reviewed. Now python runs with --check-hash-based-pycs always, so such
// a .pyc is compared with its source's hash and, differing, not used. (A timestamp .pyc matches
// only a source of the time and size it records, and the run's copy of the source is as new as
// the copy.) Under bubblewrap and without it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

describe('threat: a .pyc in a python skill that is not its source', () => {
  const sc = scratch('skillctl-python-bytecode-');
  const tool = join(sc.work, 'tool');

  before(async () => {
    // The hidden code, compiled where the bundle does not hold it.
    const hidden = join(sc.root, 'hidden');
    await mkdir(hidden);
    await writeFile(join(hidden, 'helper.py'), 'def who():\n    return "HIDDEN"\n');
    const tag = execFileSync('python3', ['-c', 'import sys; print(sys.implementation.cache_tag)'], { encoding: 'utf8' }).trim();
    await mkdir(join(tool, '__pycache__'), { recursive: true });
    execFileSync('python3', [
      '-c',
      'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True)',
      join(hidden, 'helper.py'),
      join(tool, '__pycache__', `helper.${tag}.pyc`),
    ]);
    await writeBundle(tool, {
      entrypoints: [
        entry({
          runtime: 'python',
          runtime_version: PYTHON_VERSION,
          command: 'python3 main.py',
          output_schema: { type: 'object', properties: { ok: { type: 'string' } } },
        }),
      ],
      files: { 'main.py': 'import json, helper\nprint(json.dumps({"ok": helper.who()}))\n', 'helper.py': 'def who():\n    return "reviewed"\n' },
    });
  });

  const rows: Attack[] = (['bwrap', 'none'] as const).map((sandbox) => ({
    what: `a python skill (--sandbox ${sandbox}) imports helper, whose __pycache__ holds an unchecked .pyc of other code: the reviewed source runs`,
    code: null,
    exit: 0,
    attempt: () => runTarget(tool, {}, { cwd: sc.work, sandbox }),
    check: (r) => assert.deepEqual(r.output, { ok: 'reviewed' }),
  }));
  attackRows(rows, sc);
});
