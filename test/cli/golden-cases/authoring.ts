// Golden cases for making and describing skills: init, convert, prompt (docs/commands/init.md,
// convert.md, prompt.md). Runtime versions are always given: the defaults are whatever python3,
// node and bash this machine has.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoldenCase, GoldenContext } from '../../helpers/golden-cli.js';

const SKILLS = 'fixtures/agent-skills';
const DESCRIPTION = 'Normalise text';

/** A SKILL.md folder with a script of every kind convert knows, and files it skips. */
async function mixedScripts({ dir }: GoldenContext): Promise<void> {
  const root = join(dir, 'mixed-tools');
  await mkdir(join(root, 'scripts'), { recursive: true });
  await writeFile(join(root, 'SKILL.md'), '---\nname: mixed-tools\ndescription: Scripts of every kind. Use in tests.\nmetadata:\n  version: "0.3.0"\n---\n# Mixed tools\n');
  await writeFile(join(root, 'scripts', 'count.py'), 'import json, sys\nprint(json.dumps({"n": len(sys.stdin.read())}))\n');
  await writeFile(join(root, 'scripts', 'upper.mjs'), 'process.stdout.write("{}");\n');
  await writeFile(join(root, 'scripts', 'size.sh'), '#!/bin/sh\necho "{}"\n', { mode: 0o755 });
  await writeFile(join(root, 'scripts', '_helpers.py'), '# a private module\n');
  await writeFile(join(root, 'scripts', 'notes.txt'), 'not a script\n');
}

export const AUTHORING: readonly GoldenCase[] = [
  // init, never interactive here (no terminal); the listing is of the files it created
  { args: ['init', 'text-tools', '--yes', '--description', DESCRIPTION, '--runtime-version', '3.11.7'], temp: {}, list: ['text-tools'] },
  { args: ['init', 'fetcher', '--yes', '--runtime', 'node', '--runtime-version', '20.19.0', '--permission', 'net.http=https://api.example.com/', '--permission', 'env=API_TOKEN', '--description', 'Fetch data'], temp: {}, list: ['fetcher'], show: ['fetcher/skill.yaml'] },
  { args: ['init', 'bytes', '--yes', '--runtime', 'shell', '--runtime-version', 'bash@5.2', '--skill-version', '1.2.3', '--id', 'acme.bytes', '--description', 'Count bytes'], temp: {}, list: ['bytes'] },
  { args: ['init', 'pdf-tools', '--format', 'skill-md', '--runtime', 'none', '--yes', '--description', 'Read PDF files'], temp: {}, list: ['pdf-tools'], show: ['pdf-tools/SKILL.md'] },
  { args: ['init', '--yes'], temp: {}, list: ['.'] },
  { args: ['init', 'no-description', '--yes'], temp: {}, list: ['.'] },
  { args: ['init', 'Bad_Id', '--yes', '--description', 'x', '--runtime-version', '3.11.7'], temp: {}, list: ['.'] },
  { args: ['init', 'existing', '--yes', '--description', 'x', '--runtime-version', '3.11.7'], temp: { existing: `${SKILLS}/valid/minimal-skill` }, list: ['existing'] },
  { args: ['init', 'existing', '--yes', '--force', '--description', 'x', '--runtime-version', '3.11.7'], temp: { existing: `${SKILLS}/valid/minimal-skill` }, list: ['existing'] },
  // convert, both directions, on temp copies
  { args: ['convert', 'pdf-notes', '--python-version', '3.12.4'], temp: { 'pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, list: ['pdf-notes'], show: ['pdf-notes/skill.yaml'] },
  { args: ['convert', 'pdf-notes', '--json', '--id', 'acme.pdf_notes', '--skill-version', '2.0.0', '--python-version', '3.12.4'], temp: { 'pdf-notes': `${SKILLS}/pinnable/pdf-notes` } },
  { args: ['convert', 'mixed-tools', '--python-version', '3.12.4', '--node-version', '20.19.0', '--shell-version', 'bash@5.2'], label: 'scripts', temp: {}, setup: mixedScripts, show: ['mixed-tools/skill.yaml'] },
  { args: ['convert', 'minimal-skill'], temp: { 'minimal-skill': `${SKILLS}/valid/minimal-skill` }, list: ['minimal-skill'] },
  { args: ['convert', 'node-entrypoint', '--to', 'skill-md'], temp: { 'node-entrypoint': 'fixtures/manifests/valid/node-entrypoint' }, list: ['node-entrypoint'], show: ['node-entrypoint/SKILL.md', 'node-entrypoint/skill.yaml'] },
  { args: ['convert', 'pdf-notes', '--python-version', '3.12.4'], label: 'both', temp: { 'pdf-notes': `${SKILLS}/pinnable/pdf-notes` }, setup: async ({ cli }) => void (await cli(['convert', 'pdf-notes', '--python-version', '3.12.4'])) },
  { args: ['convert', 'nope'], temp: {} },
  // prompt
  { args: ['prompt', `${SKILLS}/valid`] },
  { args: ['prompt', '--json', `${SKILLS}/valid/angle-brackets`, `${SKILLS}/valid/minimal-skill`] },
  { args: ['prompt', `${SKILLS}/valid/minimal-skill`, `${SKILLS}/valid/minimal-skill`] },
  { args: ['prompt', `${SKILLS}/invalid/frontmatter-missing`, `${SKILLS}/valid/minimal-skill`] },
  { args: ['prompt', 'fixtures/manifests/valid'] },
];
