// `registry publish oci://…` against the real CNCF distribution registry (Debian's docker-registry):
// a pushed skill whose folder is a capability bundle is published as its local folder would be,
// and a reference that cannot be pulled publishes nothing.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { fixture } from '../helpers/paths.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { leftIn } from '../helpers/tmp.js';

/** A manifest bundle (skill.yaml) whose folder also holds the four files of the `weights` capability. */
const SKILL_WITH_CAPABILITY = fixture('registry', 'oci', 'skill-with-capability');

interface PublishDoc {
  published: boolean;
  results: { dir: string; capability_id: string | null; published: boolean; digest: string | null; diagnostics: { code: string; file?: string }[] }[];
  diagnostics?: { code: string }[];
}
interface ListDoc {
  capabilities: { capability_id: string; origin: string }[];
}

describe('registry publish oci:// with docker-registry', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: Record<string, string>;
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: work, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-registry-oci-');
    await mkdir(join(work, 'docker'));
    await mkdir(join(work, 'tmp'));
    // TMPDIR inside the test: the scratch folder artifacts are unpacked into must be gone afterwards.
    env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'docker'), TMPDIR: join(work, 'tmp') };
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it('publishes the capability a pushed skill holds, as publishing its folder does, naming the digest the tag resolved to', async () => {
    const tag = `oci://${registry.host}/team/weights:1.0.0`;
    const pushed = cli(['push', SKILL_WITH_CAPABILITY, tag, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const manifest = json<{ digest: string }>(pushed).digest;

    const r = cli(['registry', 'publish', tag, '--registry', 'reg', '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<PublishDoc>(r);
    assert.equal(doc.published, true);
    assert.equal(doc.results.length, 1);
    const [res] = doc.results;
    assert.equal(res?.dir, `${tag}@${manifest}`);
    assert.equal(res?.capability_id, 'weights');
    assert.equal(res?.published, true);
    // skill.yaml is the skill's, not the capability's: warned about and left out, as for the local folder.
    assert.deepEqual(res?.diagnostics.map((d) => [d.code, d.file]), [['CAPABILITY_FILE_UNEXPECTED', `${tag}@${manifest}/skill.yaml`]]);
    // Without --json the note on stderr names the digest too; publishing again changes nothing.
    const again = cli(['registry', 'publish', tag, '--registry', 'reg']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.ok(again.stderr.includes(`pulled ${tag}@${manifest}\n`), again.stderr);
    assert.match(again.stdout, /^✔ unchanged weights \(sha256:[0-9a-f]{64}\)$/m);

    // The same bundle digest as publishing the folder itself.
    const local = cli(['registry', 'publish', SKILL_WITH_CAPABILITY, '--registry', 'reg-local', '--json']);
    assert.equal(local.code, 0, local.stdout + local.stderr);
    assert.equal(json<PublishDoc>(local).results[0]?.digest, res?.digest);

    const list = cli(['registry', 'list', '--registry', 'reg', '--json']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(json<ListDoc>(list).capabilities.map((c) => c.capability_id), ['weights']);
    const loaded = cli(['registry', 'load', 'weights', '--registry', 'reg', '--json']);
    assert.equal(loaded.code, 0, loaded.stderr);
    assert.equal(json<{ capabilities: { skill_doc: string }[] }>(loaded).capabilities[0]?.skill_doc, await readFile(join(SKILL_WITH_CAPABILITY, 'skill.md'), 'utf8'));
    assert.deepEqual(await leftIn(join(work, 'tmp')), []);
  });

  it('an unknown tag is OCI_NOT_FOUND, exit 2, and the registry is left as it was', async () => {
    const before = await readFile(join(work, 'reg', 'index.json'));
    const r = cli(['registry', 'publish', `oci://${registry.host}/team/weights:missing`, '--registry', 'reg', '--json']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const err = json<{ error: { code: string; message: string } }>(r).error;
    assert.equal(err.code, 'OCI_NOT_FOUND');
    assert.match(err.message, /manifest team\/weights:missing: not found \(HTTP 404: MANIFEST_UNKNOWN/);
    assert.deepEqual(await readFile(join(work, 'reg', 'index.json')), before);
    assert.deepEqual(await leftIn(join(work, 'tmp')), []);
  });

  it('a pushed SKILL.md folder holds no capability: CAPABILITY_FILE_MISSING, exit 1, nothing published', async () => {
    const tag = `oci://${registry.host}/team/pdf-notes:1`;
    assert.equal(cli(['push', PDF_NOTES_DIR, tag]).code, 0);
    const before = await readFile(join(work, 'reg', 'index.json'));
    const r = cli(['registry', 'publish', tag, '--registry', 'reg', '--json']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const doc = json<PublishDoc>(r);
    assert.equal(doc.published, false);
    assert.ok(doc.results[0]?.diagnostics.some((d) => d.code === 'CAPABILITY_FILE_MISSING'), r.stdout);
    assert.deepEqual(await readFile(join(work, 'reg', 'index.json')), before);
  });

  it('--min-signers or --timeout without an oci:// source is a usage error', () => {
    for (const options of [['--min-signers', '1', '--keys', 'keys.json'], ['--timeout', '5']]) {
      const r = cli(['registry', 'publish', SKILL_WITH_CAPABILITY, '--registry', 'reg', ...options]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--plain-http, --min-signers, --keys and --timeout apply to oci:\/\/ sources, and none is given/);
    }
  });

  it('--min-signers: an artifact without a trusted signer is OCI_SIGNERS_TOO_FEW and nothing is published; a signed one is', async () => {
    const before = await readFile(join(work, 'reg', 'index.json'));
    const keys = join(work, 'keys.json');
    const gen = cli(['keygen', '--signer', 'team', '--out', join(work, 'team.key'), '--keys', keys]);
    assert.equal(gen.code, 0, gen.stdout + gen.stderr);
    const unsigned = cli(['registry', 'publish', `oci://${registry.host}/team/weights:1.0.0`, '--registry', 'reg', '--min-signers', '1', '--keys', keys, '--json']);
    assert.equal(unsigned.code, 1, unsigned.stdout + unsigned.stderr);
    assert.equal(json<{ error: { code: string } }>(unsigned).error.code, 'OCI_SIGNERS_TOO_FEW');
    assert.deepEqual(await readFile(join(work, 'reg', 'index.json')), before);

    const signed = `oci://${registry.host}/team/weights-signed:1`;
    const pushed = cli(['push', SKILL_WITH_CAPABILITY, signed, '--sign', join(work, 'team.key'), '--signer', 'team']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const r = cli(['registry', 'publish', signed, '--registry', 'reg-signed', '--min-signers', '1', '--keys', keys, '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(json<PublishDoc>(r).results[0]?.capability_id, 'weights');
  });
});
