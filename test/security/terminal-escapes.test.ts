// Threat: terminal escape injection (text from a skill, a registry or a file that commands the user's terminal when skillctl prints it).
// skillctl prints text it did not write: a skill's stderr, the error a skill reports, a SKILL.md's
// name and description, an archive entry's name, a registry's own error message. Each carries
// escape sequences that set the window title (OSC 0), write the clipboard (OSC 52), erase and
// overwrite lines (CR, CSI 2K, cursor up) or start a CSI with the 8-bit U+009B. In human output
// no control character but newline and tab reaches stdout or stderr: each is shown as `\u001b`,
// and the text around it is still there to read. With --json the same text is escaped by the
// JSON document, U+009B and DEL included. A raw 0x9B byte (not UTF-8) never passes: skillctl
// reads text as UTF-8, where it is U+FFFD; U+009B (C2 9B) is what a UTF-8 terminal may obey.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { attempt, runTarget, scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { skillctlAsync, type CliRun } from '../helpers/cli.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';
import { HANG_GUARD_MS } from '../helpers/hostile.js';
import { hostileRegistry } from '../helpers/hostile-registry.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tgz } from '../helpers/tar.js';

/** Every character a terminal obeys as a command: C0 but newline and tab, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

/** The payload: title, clipboard, carriage return and erase, cursor up, the 8-bit CSI. */
const TITLE = '\u001b]0;PWNED\u0007';
const CLIPBOARD = '\u001b]52;c;cHduZWQ=\u0007';
const ERASE = '\r\u001b[2K\u001b[1A';
const CSI8 = '\u009b2J';
const PAYLOAD = `${TITLE}title ${CLIPBOARD}clip ${ERASE}erase ${CSI8}csi`;
/** How the payload reads once made visible. */
const SHOWN = ['\\u001b]0;PWNED\\u0007title', '\\u001b]52;c;cHduZWQ=\\u0007clip', '\\u000d\\u001b[2K\\u001b[1Aerase', '\\u009b2Jcsi'];

/** Neither stream holds a control character; each escaped form of the payload is there to read. */
function noControls(r: { readonly stdout: string; readonly stderr: string }, shown: readonly string[] = SHOWN): void {
  for (const [name, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
    const m = CONTROL.exec(text);
    if (m !== null) assert.fail(`${name} holds U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 60))}`);
  }
  const both = r.stdout + r.stderr;
  for (const s of shown) assert.ok(both.includes(s), `${s} is not shown:\n${both.slice(0, 3000)}`);
}

/** `skillctl <args>` in human mode (no --json), as a user at a terminal runs it. */
async function human(args: readonly string[], cwd: string, opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const r = await skillctlAsync(args, { cwd, input: opts.input ?? '', timeoutMs: HANG_GUARD_MS, ...(opts.env !== undefined ? { env: opts.env } : {}) });
  if (r.code === -1) assert.fail(`skillctl ${args.join(' ')} did not finish within ${HANG_GUARD_MS} ms`);
  return r;
}

/** A python skill running `body` (sys and json imported). */
async function pythonSkill(dir: string, body: string): Promise<void> {
  await writeBundle(dir, {
    entrypoints: [
      entry({
        runtime: 'python',
        runtime_version: PYTHON_VERSION,
        command: 'python3 main.py',
        input_schema: { type: 'object', properties: { path: {} } },
        output_schema: { type: 'object', properties: { ok: {} } },
        requested_permissions: {},
      }),
    ],
    files: { 'main.py': `import sys, json\n${body}\n` },
  });
}

/** The payload as a Python string literal. */
const py = (s: string): string => JSON.stringify(s);

/** An Agent Skills folder whose name and description carry the payload (YAML double-quoted escapes). */
async function hostileSkillMd(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const name = 'evil\\e]0;PWNED\\a';
  await writeFile(join(dir, 'SKILL.md'), `---\nname: "${name}"\ndescription: ${JSON.stringify(PAYLOAD)}\n---\nbody\n`);
}

describe('attack: terminal escape injection', () => {
  const sc = scratch('skillctl-escapes-');

  before(async () => {
    // Raw 0x9B after the payload: not UTF-8, so never a C1 control once read.
    await pythonSkill(join(sc.work, 'bundles', 'stderr'), `sys.stderr.buffer.write(${py(PAYLOAD)}.encode() + b"\\x9b2J raw\\n")\nprint(json.dumps({"ok": True}))`);
    await pythonSkill(join(sc.work, 'bundles', 'fails'), `print(json.dumps({"code": "EVIL", "message": ${py(PAYLOAD)}}))\nsys.exit(1)`);
    await hostileSkillMd(join(sc.work, 'skills', 'evil'));
  });

  it("a skill's stderr (OSC 0, OSC 52, CR and erase, 8-bit CSI): shown escaped, the run still succeeds", async () => {
    const r = await human(['run', './bundles/stderr', '--no-audit', '--input', '-'], sc.work, { input: '{}' });
    assert.equal(r.code, 0, r.stderr);
    noControls(r);
    assert.ok(r.stderr.includes('\ufffd2J raw'), 'the raw 0x9B byte is read as U+FFFD');
  });

  it("a skill's stderr with --json: escaped by the document, and kept as the skill wrote it", async () => {
    const r = await runTarget('./bundles/stderr', {}, { cwd: sc.work });
    noControls(r, []);
    const doc = JSON.parse(r.stdout) as { stderr: string };
    assert.ok(doc.stderr.startsWith(PAYLOAD), JSON.stringify(doc.stderr));
  });

  it("a skill's reported error carries the payload: the diagnostic and the error document show it escaped", async () => {
    const r = await human(['run', './bundles/fails', '--no-audit', '--input', '-'], sc.work, { input: '{}' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /RUN_SKILL_FAILED/);
    noControls(r);
    noControls(await runTarget('./bundles/fails', {}, { cwd: sc.work }), []);
  });

  it('a SKILL.md whose name and description carry the payload: validate shows them escaped', async () => {
    const r = await human(['validate', 'skills/evil'], sc.work);
    assert.equal(r.code, 1);
    noControls(r, ['evil\\u001b]0;PWNED\\u0007']);
    noControls(await attempt(['validate', 'skills/evil'], { cwd: sc.work }), []);
  });

  it('the same SKILL.md: prompt prints its name and description escaped', async () => {
    const r = await human(['prompt', 'skills/evil'], sc.work);
    noControls(r, [...SHOWN, 'evil\\u001b]0;PWNED\\u0007']);
    noControls(await attempt(['prompt', 'skills/evil'], { cwd: sc.work }), []);
  });

  const entryName = `../${TITLE}${CSI8}${ERASE}evil.txt`;

  it('an archive entry named with the payload: run ARCHIVE and pin refuse it and show the name escaped', async () => {
    await writeFile(join(sc.work, 'evil.tgz'), tgz([{ name: 'skill.yaml', data: 'skill_id: x\n' }, { name: entryName, data: 'x' }]));
    for (const args of [['run', './evil.tgz', '--no-audit', '--input', '-'], ['pin', './evil.tgz']]) {
      const r = await human(args, sc.work, { input: '{}' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout + r.stderr, /ARCHIVE_PATH_UNSAFE/);
      noControls(r, ['\\u001b]0;PWNED\\u0007\\u009b2J']);
      noControls(await attempt(args, { cwd: sc.work, input: '{}' }), []);
    }
  });
});

describe("attack: a registry's own error message carries the payload", () => {
  const sc = scratch('skillctl-escapes-oci-');
  it('pull from a registry that answers 500 with it: the message is shown escaped', async () => {
    const reg = await hostileRegistry({ misbehaviour: 'always-500', layer: tgz([]), errorMessage: `storage ${PAYLOAD}` });
    try {
      const env = { XDG_CACHE_HOME: join(sc.root, 'cache'), DOCKER_CONFIG: join(sc.root, 'no-docker') };
      const args = ['pull', `oci://${reg.host}/skills/pdf-notes:1`, '--out', 'out'];
      const r = await human(args, sc.work, { env });
      assert.equal(r.code, 2, r.stderr);
      // The registry's C0 controls are dropped before the message is kept; what is left is shown escaped.
      noControls(r, ['\\u009b2Jcsi']);
      noControls(await attempt(args, { cwd: sc.work, env }), []);
    } finally {
      await reg.close();
    }
  });
});

describe("attack: an MCP server's stderr carries the payload", () => {
  const sc = scratch('skillctl-escapes-mcp-');
  it('pull skill:// from a server program that writes it to its stderr: shown escaped, the pull still succeeds', async () => {
    const command = `${serverCommand(SERVED)} --say '${PAYLOAD}'`;
    const r = await human(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', command, '--out', 'out'], sc.work);
    assert.equal(r.code, 0, r.stderr);
    noControls(r);
  });
});

