// Threat: an interpreter installed among the user's files shows them to every skill of its runtime.
// The sandbox shows an interpreter outside the system directories by mounting its installation
// prefix read-only (`<prefix>/bin/python3`: the standard library is in `<prefix>/lib`). Where the
// interpreter is a binary in ~/bin, that prefix is the whole home; in ~/.local/bin, ~/.local
// (keyrings, shell histories). A python skill whose policy grants it only its working directory
// then read ~/.ssh/id_ed25519 and ~/.local/share/keyrings under bubblewrap. Now a prefix that is
// the home, holds it, is ~/.local or is `/` is not shown whole: only the interpreter itself and
// the prefix's lib folders, and the skill finds no such file. The same for a binary in the
// project's bin/ (its prefix: the project), whose skill was granted only its own folder and read
// the project's .env.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, SECRET, type Attack, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';

// The system's python, whose standard library is found by its compiled-in prefix wherever the binary is copied.
const SYSTEM_PYTHON = '/usr/bin/python3';
const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p));
const skip = !existsSync(SYSTEM_PYTHON) ? `no ${SYSTEM_PYTHON}` : !bwrap ? 'no bubblewrap' : false;
const version = skip === false ? execFileSync(SYSTEM_PYTHON, ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).trim() : '3';

/** The home's files a skill aims at, each holding SECRET; the first holds the python of the row. */
const PLACES = [
  { bin: 'bin', secret: '.ssh/id_ed25519', what: 'a python3 binary in ~/bin (its prefix: the home)' },
  { bin: '.local/bin', secret: '.local/share/keyrings/login.keyring', what: 'a python3 binary in ~/.local/bin (its prefix: ~/.local)' },
] as const;

const READ = 'import json, sys\ntry:\n    said = open(json.load(sys.stdin)["path"]).read()\nexcept OSError:\n    said = "absent"\nprint(json.dumps({"ok": said}))\n';

describe('threat: an interpreter installed among the user\'s files (its prefix shown to every skill)', { skip }, () => {
  const sc = scratch('skillctl-interpreter-prefix-');
  const home = join(sc.root, 'home');
  const tool = join(sc.work, 'tool');

  before(async () => {
    for (const p of PLACES) {
      await mkdir(join(home, p.bin), { recursive: true });
      copyFileSync(SYSTEM_PYTHON, join(home, p.bin, 'python3'));
      await mkdir(join(home, p.secret, '..'), { recursive: true });
      await writeFile(join(home, p.secret), `${SECRET}\n`);
    }
    await writeBundle(tool, {
      entrypoints: [entry({ runtime: 'python', runtime_version: version, command: 'python3 main.py', output_schema: { type: 'object', properties: { ok: { type: 'string' } } } })],
      files: { 'main.py': READ },
    });
  });

  const rows: Attack[] = PLACES.flatMap((p) =>
    PLACES.map((aim): Attack => ({
      what: `${p.what}, a python skill granted its working directory reads ~/${aim.secret}: not shown`,
      code: null,
      exit: 0,
      attempt: async (s: Scratch) => {
        const policy = join(s.work, `${p.bin.replace(/\W/g, '-')}.policy.yaml`);
        await writeFile(policy, `version: 1\npath: [${join(home, p.bin)}, /usr/bin, /bin]\npermissions:\n  fs.read: [.]\n`);
        return runTarget(tool, { path: join(home, aim.secret) }, { cwd: s.work, policy, sandbox: 'bwrap', env: { HOME: home } });
      },
      // Not the secret: the home's files beyond the interpreter are not in the sandbox.
      check: (r) => assert.deepEqual(r.output, { ok: 'absent' }),
    })),
  );
  rows.push({
    what: "a python3 binary in the project's bin/ (its prefix: the project), a python skill granted only its own folder reads the project's .env: not shown",
    code: null,
    exit: 0,
    attempt: async (s: Scratch) => {
      await mkdir(join(s.work, 'bin'), { recursive: true });
      copyFileSync(SYSTEM_PYTHON, join(s.work, 'bin', 'python3'));
      await writeFile(join(s.work, '.env'), `TOKEN=${SECRET}\n`);
      const policy = join(s.work, 'project-bin.policy.yaml');
      await writeFile(policy, `version: 1\npath: [${join(s.work, 'bin')}, /usr/bin, /bin]\npermissions:\n  fs.read: [tool]\n`);
      return runTarget(tool, { path: join(s.work, '.env') }, { cwd: s.work, policy, sandbox: 'bwrap', env: { HOME: home } });
    },
    check: (r) => assert.deepEqual(r.output, { ok: 'absent' }),
  });
  attackRows(rows, sc);
});
