// Golden cases for archives, pins and keys: pack, pin, verify-pins, keygen (docs/commands/).
// Archives are byte-reproducible, so the listing of what pack wrote carries their sha256.
import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoldenCase, GoldenContext, Redaction } from '../../helpers/golden-cli.js';
import { git } from '../../helpers/git-repo.js';
import { fixture } from '../../helpers/paths.js';

const PROJECT = { '.': 'fixtures/pins/project' } as const;
const LOCK = 'pins/skills.lock.json';
const SKILLS = 'fixtures/agent-skills';

async function pinAll({ cli }: GoldenContext): Promise<void> {
  await cli(['pin', '--all']);
}

/** A pinned project whose bundle then changed on disk, without a new version. */
async function pinnedThenTampered(ctx: GoldenContext): Promise<void> {
  await pinAll(ctx);
  await appendFile(join(ctx.dir, 'manifests', 'hello', 'data', 'words.txt'), 'tampered\n');
}

/** A pinned project whose bundle then changed, digests rewritten, without a new version. */
async function pinnedThenEdited(ctx: GoldenContext): Promise<void> {
  await pinnedThenTampered(ctx);
  await ctx.cli(['validate', '--fix', 'manifests/hello']);
}

/** An archive packed, then its folder edited (digests rewritten) without a new version. */
async function packedThenEdited(ctx: GoldenContext): Promise<void> {
  await ctx.cli(['pack', 'manifests/hello', '--out', 'out']);
  await appendFile(join(ctx.dir, 'manifests', 'hello', 'data', 'words.txt'), 'edited\n');
  await ctx.cli(['validate', '--fix', 'manifests/hello']);
}

/**
 * keygen makes a fresh random key pair: its public key and the keys file's digest differ on
 * every run. Secret keys never reach a golden file (listings of key files carry no hash).
 */
const KEYS: readonly Redaction[] = [
  { pattern: /public key [A-Za-z0-9+/]{43}=/g, replacement: 'public key <PUBLIC_KEY>' },
  { pattern: /"public_key": "[A-Za-z0-9+/]{43}="/g, replacement: '"public_key": "<PUBLIC_KEY>"' },
  { pattern: /"keys_digest": "sha256:[0-9a-f]{64}"/g, replacement: '"keys_digest": "<KEYS_DIGEST>"' },
  { pattern: /hashes to sha256:[0-9a-f]{64}/g, replacement: 'hashes to <KEYS_DIGEST>' },
];

export const PACK: readonly GoldenCase[] = [
  { args: ['pack', 'manifests/hello', '--out', 'out'], temp: PROJECT, list: ['out'] },
  { args: ['pack', '--json', 'golden-bundle', '--out', 'dist'], temp: { 'golden-bundle': 'fixtures/pack/golden-bundle' }, list: ['dist'] },
  { args: ['pack', 'pdf-notes', '--format', 'both', '--out', 'out'], temp: { 'pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, list: ['out'] },
  { args: ['pack', 'pdf-notes', '--out', 'out'], label: 'unversioned', temp: { 'pdf-notes': `${SKILLS}/unversioned/pdf-notes` }, list: ['out'] },
  { args: ['pack', 'code-extension-fields', '--format', 'skill', '--strict', '--out', 'out'], temp: { 'code-extension-fields': `${SKILLS}/valid/code-extension-fields` }, list: ['out'] },
  { args: ['pack', 'manifests/hello', '--format', 'zip'], temp: PROJECT, list: ['demo.hello-0.1.0.tgz'] },
  // seed 003: an identity's archive never gets other bytes (ARCHIVE_IMMUTABLE), unless --force.
  { args: ['pack', 'manifests/hello', '--out', 'out'], label: 'changed-same-version', temp: PROJECT, setup: packedThenEdited, list: ['out'] },
  { args: ['pack', 'manifests/hello', '--out', 'out', '--force'], label: 'changed-same-version', temp: PROJECT, setup: packedThenEdited, list: ['out'] },
];

export const PIN: readonly GoldenCase[] = [
  { args: ['pin', 'manifests/hello'], temp: PROJECT, show: [LOCK] },
  { args: ['pin', '--all'], temp: PROJECT, show: [LOCK] },
  { args: ['pin', 'manifests/hello'], label: 'changed-same-version', temp: PROJECT, setup: pinnedThenEdited, show: [LOCK] },
  { args: ['pin', 'manifests/hello', '--replace'], label: 'changed-same-version', temp: PROJECT, setup: pinnedThenEdited, show: [LOCK] },
  {
    args: ['pin', 'out/demo.hello-0.1.0.tgz'],
    label: 'packed',
    temp: PROJECT,
    setup: async ({ cli }) => void (await cli(['pack', 'manifests/hello', '--out', 'out'])),
    show: [LOCK],
  },
  // The archive of a folder the lock pins: refused, the folder's pin stays put (PIN_SOURCE_CONFLICT).
  {
    args: ['pin', 'out/demo.hello-0.1.0.tgz'],
    label: 'folder-pinned',
    temp: PROJECT,
    setup: async (ctx) => {
      await pinAll(ctx);
      await ctx.cli(['pack', 'manifests/hello', '--out', 'out']);
    },
    show: [LOCK],
  },
  { args: ['pin', 'skills/pdf-notes'], temp: { ...PROJECT, 'skills/pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, show: [LOCK] },
  { args: ['pin', '--all'], label: 'every-root', temp: { ...PROJECT, 'skills/pdf-notes': `${SKILLS}/pinnable/pdf-notes`, '.agents/skills/pdf-tools': `${SKILLS}/valid/pdf-tools` }, show: [LOCK] },
  { args: ['pin', '--all', '--skill-roots', 'manifests,tools/skills'], temp: { ...PROJECT, 'tools/skills/pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, show: [LOCK] },
  { args: ['pin', '<ROOT>/fixtures/manifests/valid/node-entrypoint'], temp: PROJECT, list: ['pins'] },
  { args: ['pin', 'manifests/hello', '--min-signers', '1'], temp: PROJECT, list: ['pins'] },
  { args: ['pin', 'manifests/hello', '--sign', 'missing.key', '--signer', 'alice'], temp: PROJECT, list: ['pins'] },
];

export const VERIFY_PINS: readonly GoldenCase[] = [
  { args: ['verify-pins'] },
  { args: ['verify-pins', '--lock', '-'], label: 'not-json', stdin: 'not json\n' },
  { args: ['verify-pins'], label: 'tampered', temp: PROJECT, setup: pinnedThenTampered },
  { args: ['verify-pins', '--json'], label: 'tampered', temp: PROJECT, setup: pinnedThenTampered },
  {
    args: ['verify-pins'],
    label: 'unpinned-and-missing',
    temp: PROJECT,
    setup: async (ctx) => {
      await pinAll(ctx);
      await cp(fixture('manifests', 'valid', 'node-entrypoint'), join(ctx.dir, 'manifests', 'node-entrypoint'), { recursive: true });
      await rm(join(ctx.dir, 'manifests', 'packs', 'daily.yaml'));
    },
  },
  { args: ['verify-pins', '--min-signers', '2'], label: 'pinned', temp: PROJECT, setup: pinAll },
  {
    args: ['verify-pins'],
    label: 'unpinned-in-agents-skills',
    temp: PROJECT,
    setup: async (ctx) => {
      await pinAll(ctx);
      await cp(fixture('agent-skills', 'pinnable', 'pdf-notes'), join(ctx.dir, '.agents', 'skills', 'pdf-notes'), { recursive: true });
    },
  },
  { args: ['verify-pins'], label: 'no-lock', temp: PROJECT },
];

/** A pinned project committed with git, then a tampered run.js staged and the good one put back on disk. */
async function tamperedIndex(ctx: GoldenContext): Promise<void> {
  await pinAll(ctx);
  git(ctx.dir, 'init', '-q', '-b', 'main');
  git(ctx.dir, 'add', '.');
  git(ctx.dir, 'commit', '-q', '-m', 'pinned');
  const path = join(ctx.dir, 'manifests', 'hello', 'run.js');
  const good = await readFile(path);
  await appendFile(path, '// tampered\n');
  git(ctx.dir, 'add', 'manifests/hello/run.js');
  await writeFile(path, good);
}

/** The same tampered file committed, then an unrelated commit on top. */
async function tamperedCommit(ctx: GoldenContext): Promise<void> {
  await tamperedIndex(ctx);
  git(ctx.dir, 'commit', '-q', '-m', 'tampered');
  await writeFile(join(ctx.dir, 'NOTES.md'), 'notes\n');
  git(ctx.dir, 'add', 'NOTES.md');
  git(ctx.dir, 'commit', '-q', '-m', 'notes');
}

/** verify-pins on the index and on commits (docs/commands/verify-pins.md, docs/hooks.md). */
export const VERIFY_PINS_GIT: readonly GoldenCase[] = [
  { args: ['verify-pins', '--staged'], label: 'tampered-index', temp: PROJECT, setup: tamperedIndex },
  { args: ['verify-pins', '--json', '--staged'], label: 'tampered-index', temp: PROJECT, setup: tamperedIndex },
  { args: ['verify-pins', '--rev', 'HEAD~1'], label: 'tampered-commit', temp: PROJECT, setup: tamperedCommit },
  { args: ['verify-pins', '--rev', 'HEAD~2'], label: 'tampered-commit', temp: PROJECT, setup: tamperedCommit },
  { args: ['verify-pins', '--rev', 'nope'], label: 'tampered-commit', temp: PROJECT, setup: tamperedCommit },
  { args: ['verify-pins', '--staged'], label: 'no-repository', temp: PROJECT, setup: pinAll },
  { args: ['verify-pins', '--staged', '--rev', 'HEAD'], temp: PROJECT },
];

export const KEYGEN: readonly GoldenCase[] = [
  { args: ['keygen'], temp: {}, list: ['.'] },
  { args: ['keygen', '--signer', 'bad id'], temp: {}, list: ['.'] },
  { args: ['keygen', '--signer', 'alice'], temp: PROJECT, redact: KEYS, list: ['.skillctl', 'pins'], listHashes: false },
  { args: ['keygen', '--json', '--signer', 'bob', '--out', 'k/bob.key', '--keys', 'k/keys.json'], temp: {}, redact: KEYS, list: ['k'], listHashes: false },
  { args: ['keygen', '--signer', 'alice'], label: 'exists', temp: PROJECT, setup: async ({ cli }) => void (await cli(['keygen', '--signer', 'alice'])), list: ['.skillctl', 'pins'], listHashes: false },
];
