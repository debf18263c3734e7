/**
 * `skillctl convert` of a skill.contract.v1 bundle: a SKILL.md that Agent Skills clients can
 * load, naming the entrypoints and how to run them under skillctl. The text is checked with the
 * SKILL.md checker (default profile) against the folder before it is returned.
 */
import type { BundleFile } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { commandArgv, toYamlText, type Entrypoint, type Manifest } from '../manifest/index.js';
import { NAME_MAX_CHARS } from './model.js';
import { checkSkillMd } from './validate.js';

export interface ToSkillMdOptions {
  /** The bundle folder's name (the skill's name must match it). */
  readonly dirName: string;
  /** The bundle's files, so the check sees the folder as it will be. */
  readonly files: readonly BundleFile[];
  /** The name to give; default: the folder's name, else one derived from skill_id. */
  readonly name?: string;
  /** How SKILL.md is named in diagnostics. */
  readonly file: string;
}

export interface SkillMdConversion {
  readonly text?: string;
  readonly name?: string;
  readonly diagnostics: readonly Diagnostic[];
}

const VALID_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function isName(s: string): boolean {
  return s.length <= NAME_MAX_CHARS && VALID_NAME.test(s);
}

/** A spec-valid name from a skill_id: `acme.pdf_tools` gives `acme-pdf-tools`. */
export function nameFromSkillId(skillId: string): string {
  return skillId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_MAX_CHARS)
    .replace(/-+$/, '');
}

function fence(value: unknown): string {
  return ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
}

function runtimeLabel(ep: Entrypoint): string {
  return ep.runtime_version !== undefined ? `${ep.runtime} ${ep.runtime_version}` : ep.runtime;
}

function body(name: string, m: Manifest): string {
  const out = [`# ${name}`, '', m.description.trim(), '', '## Entrypoints', ''];
  out.push(
    `This skill is also a skill.contract.v1 bundle (\`skill.yaml\`, skill \`${m.skill_id}\` version ${m.skill_version}). ` +
      'Run an entrypoint under the host policy with skillctl, which checks the request and the result against the schemas below:',
    '',
    '```sh',
    `skillctl run <this folder> --entrypoint ${m.entrypoints[0]?.entrypoint_id ?? 'main'} --input request.json`,
    '```',
    '',
    '| entrypoint | runtime | command |',
    '|---|---|---|',
  );
  for (const ep of m.entrypoints) {
    out.push(`| \`${ep.entrypoint_id}\` | ${runtimeLabel(ep)} | \`${commandArgv(ep.command).join(' ').replace(/\|/g, '\\|')}\` |`);
  }
  for (const ep of m.entrypoints) {
    out.push('', `### \`${ep.entrypoint_id}\``, '', 'Request (JSON on stdin):', '', fence(ep.input_schema), '', 'Result (JSON on stdout):', '', fence(ep.output_schema));
  }
  return out.join('\n') + '\n';
}

/** SKILL.md text for a validated manifest; undefined text with findings when none can be made. */
export function manifestToSkillMd(manifest: Manifest, opts: ToSkillMdOptions): SkillMdConversion {
  const derived = nameFromSkillId(manifest.skill_id);
  const name = opts.name ?? (isName(opts.dirName) ? opts.dirName : derived);
  if (opts.name === undefined && name !== opts.dirName) {
    return {
      diagnostics: [
        diag('AGENT_SKILL_CONVERT_NAME_INVALID', `the folder name ${JSON.stringify(opts.dirName)} is not a valid Agent Skills name, and SKILL.md's name must match it`, {
          file: opts.file,
          hint: `rename the folder to ${derived || 'a lowercase-hyphenated name'}, or pass --name`,
        }),
      ],
    };
  }
  const frontmatter = {
    name,
    description: manifest.description,
    metadata: { 'skillctl.skill_id': manifest.skill_id, 'skillctl.skill_version': manifest.skill_version },
  };
  const text = `---\n${toYamlText(frontmatter)}---\n\n${body(name, manifest)}`;
  const files = opts.files.some((f) => f.path === 'SKILL.md')
    ? opts.files
    : [...opts.files, { path: 'SKILL.md', size: Buffer.byteLength(text), mode: '0644' as const }];
  const check = checkSkillMd(Buffer.from(text, 'utf8'), { file: opts.file, dirName: opts.dirName, files });
  if (!check.valid) return { diagnostics: check.diagnostics };
  return { text, name, diagnostics: check.diagnostics };
}
