// Threat: a python skill whose folder holds compiled code that is not its source (a .pyc in __pycache__ that python runs in place of the .py a reviewer reads).
// A pull request adds or changes a skill: `helper.py` reads as harmless, and
// `__pycache__/helper.cpython-3XX.pyc`, a binary file beside it, is compiled from other code,
// as an unchecked hash-based .pyc (PEP 552), which python loads without looking at its source.
// The lock pins both files' digests, verify-pins passes, and the run ran the .pyc: the code that
// ran was never the code reviewed. Now python runs with --check-hash-based-pycs always, so such
// a .pyc is compared with its source's hash and, differing, not used. (A timestamp .pyc matches
// only a source of the time and size it records, and the run's copy of the source is as new as
// the copy.) Under bubblewrap and without it.
//
// A timestamp .pyc needs only a guess of the second the run copies the bundle: until the stop of
// 2026-12-01 a skill of twenty modules whose .pyc files recorded the twenty seconds after the
// change was made ran hidden code in one of them. python now runs with
// `-X pycache_prefix=/dev/null/skillctl`, a folder that cannot exist, so no __pycache__ in the
// bundle is read at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

/** `python3 main.py`, which prints `{"ok": …}`. */
const mainPy = entry({
  runtime: 'python',
  runtime_version: PYTHON_VERSION,
  command: 'python3 main.py',
  output_schema: { type: 'object', properties: { ok: { type: 'string' } } },
});

describe('threat: a .pyc in a python skill that is not its source', () => {
  const sc = scratch('skillctl-python-bytecode-');
  const tool = join(sc.work, 'tool');
  const timed = join(sc.work, 'timed');
  const MODULES = 20;

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
      entrypoints: [mainPy],
      files: { 'main.py': 'import json, helper\nprint(json.dumps({"ok": helper.who()}))\n', 'helper.py': 'def who():\n    return "reviewed"\n' },
    });
  });

  // Twenty modules; plant() gives each a timestamp .pyc of hidden code recording one of the
  // twenty seconds from then and the size of its source, and the manifest digests them with the
  // rest (a lock would pin them): the run copies the bundle within those seconds.
  const timedFiles: Record<string, string> = {
    'main.py': `import json\nnames = [__import__("t%d" % i).who() for i in range(${MODULES})]\nprint(json.dumps({"ok": ",".join(sorted(set(names)))}))\n`,
  };
  for (let i = 0; i < MODULES; i++) timedFiles[`t${i}.py`] = 'def who():\n    return "reviewed"\n';

  /** Timestamp .pyc files of hidden code recording each of the next seconds, written just before a run. */
  const plant = async (): Promise<void> => {
    await mkdir(timed, { recursive: true });
    for (const [name, text] of Object.entries(timedFiles)) await writeFile(join(timed, name), text);
    execFileSync('python3', [
      '-c',
      [
        'import importlib.util, marshal, os, struct, sys, time',
        'folder, count = sys.argv[1], int(sys.argv[2])',
        'now = int(time.time())',
        'os.makedirs(os.path.join(folder, "__pycache__"), exist_ok=True)',
        'for i in range(count):',
        '    src = os.path.join(folder, "t%d.py" % i)',
        '    code = compile("def who():\\n    return \\"HIDDEN\\"\\n", src, "exec")',
        '    header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, (now + i) & 0xFFFFFFFF, os.stat(src).st_size)',
        '    open(os.path.join(folder, "__pycache__", "t%d.%s.pyc" % (i, sys.implementation.cache_tag)), "wb").write(header + marshal.dumps(code))',
      ].join('\n'),
      timed,
      String(MODULES),
    ]);
    await writeBundle(timed, {
      entrypoints: [mainPy],
      files: timedFiles,
    });
  };

  const rows: Attack[] = (['bwrap', 'none'] as const).map((sandbox) => ({
    what: `a python skill (--sandbox ${sandbox}) imports helper, whose __pycache__ holds an unchecked .pyc of other code: the reviewed source runs`,
    code: null,
    exit: 0,
    attempt: () => runTarget(tool, {}, { cwd: sc.work, sandbox }),
    check: (r) => assert.deepEqual(r.output, { ok: 'reviewed' }),
  }));
  for (const sandbox of ['bwrap', 'none'] as const) {
    rows.push({
      what: `a python skill (--sandbox ${sandbox}) of ${MODULES} modules whose __pycache__ holds timestamp .pyc files of other code recording the next ${MODULES} seconds: the reviewed sources run`,
      code: null,
      exit: 0,
      attempt: async () => {
        await plant();
        return runTarget(timed, {}, { cwd: sc.work, sandbox });
      },
      check: (r) => assert.deepEqual(r.output, { ok: 'reviewed' }),
    });
  }
  attackRows(rows, sc);
});
