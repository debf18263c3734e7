/**
 * `skillctl init`: the files of a new skill, in either format, built and checked in memory.
 * What is returned is digest-correct and has passed the same validation `skillctl validate`
 * runs, so the caller only writes it.
 */
import { checkSkillMd, scriptCommand, type ScriptRuntime } from '../agent-skills/index.js';
import { computeContent, memorySource, type MemoryFile } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { CONTRACT_VERSION, manifestDigestOf, toYamlText, validateManifest, type PermissionScope } from '../manifest/index.js';
import { scriptTemplate } from './templates.js';

export type SkillFormat = 'manifest' | 'skill-md';
export const SKILL_FORMATS: readonly SkillFormat[] = ['manifest', 'skill-md'];

export interface ScaffoldSpec {
  readonly format: SkillFormat;
  /** skill_id (manifest) or name (skill-md). */
  readonly id: string;
  readonly description: string;
  /** `none` only for skill-md: instructions without a script. */
  readonly runtime: ScriptRuntime | 'none';
  /** Exact runtime_version; required for a manifest with a runtime. */
  readonly runtimeVersion?: string;
  /** Requested and required permissions of the entrypoint (manifest only). Default: none. */
  readonly permissions?: Partial<Record<PermissionScope, readonly string[]>>;
  /** skill_version; default 0.1.0. */
  readonly version?: string;
  /** The folder the skill will live in (its name must equal a skill-md name). */
  readonly dirName: string;
}

export interface Scaffold {
  /** Files to write, in path order, when the skill validated. */
  readonly files?: readonly MemoryFile[];
  readonly diagnostics: readonly Diagnostic[];
}

function title(id: string): string {
  return id
    .split(/[-._]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join(' ');
}

function file(path: string, text: string, executable = false): MemoryFile {
  return { path, data: Buffer.from(text, 'utf8'), mode: executable ? '0755' : '0644' };
}

function skillMd(spec: ScaffoldSpec): MemoryFile[] {
  const files: MemoryFile[] = [];
  const steps: string[] = [];
  if (spec.runtime !== 'none') {
    const t = scriptTemplate(spec.runtime);
    files.push(file(t.path, t.text, t.executable));
    steps.push(`1. ${t.usage}`, '2. Report the result to the user.');
  } else {
    steps.push('1. Read the request and decide whether this skill applies.', '2. Do the work step by step, saying what you did.');
  }
  const head = toYamlText({ name: spec.id, description: spec.description });
  const text = `---\n${head}---\n\n# ${title(spec.id)}\n\n${spec.description}\n\n## Instructions\n\n${steps.join('\n')}\n`;
  files.push(file('SKILL.md', text));
  return files;
}

async function manifestBundle(spec: ScaffoldSpec, runtime: ScriptRuntime): Promise<{ files: MemoryFile[]; diagnostics: Diagnostic[] }> {
  const t = scriptTemplate(runtime);
  const script = file(t.path, t.text, t.executable);
  const permissions: Record<string, string[]> = {};
  for (const [scope, values] of Object.entries(spec.permissions ?? {})) if (values.length > 0) permissions[scope] = [...values];
  const version = spec.version ?? '0.1.0';
  const content = await computeContent(memorySource([script]));
  const manifest: Record<string, unknown> = {
    skill_contract_version: CONTRACT_VERSION,
    skill_id: spec.id,
    skill_version: version,
    description: spec.description,
    manifest_digest: '',
    content_digest: content.digest,
    entrypoints: [
      {
        entrypoint_id: 'main',
        runtime,
        runtime_version: spec.runtimeVersion ?? '',
        command: scriptCommand(runtime, t.path),
        working_directory: '.',
        runtime_limits: { max_execution_time: 30, max_output_bytes: 1048576 },
        input_schema: t.inputSchema,
        output_schema: t.outputSchema,
        error_schema: {},
        args_fingerprint_fields: [...t.argsFingerprint],
        result_fingerprint_fields: [...t.resultFingerprint],
        side_effect_fingerprint_fields: [],
        side_effect_categories: [],
        requested_permissions: permissions,
        required_permissions: permissions,
        tool_profile_id: `${spec.id}.main`,
        tool_profile_version: version,
      },
    ],
  };
  manifest.manifest_digest = manifestDigestOf(manifest);
  const header = '# yaml-language-server: $schema=https://unpkg.com/skillctl/schemas/skill.contract.v1.schema.json\n';
  const yamlFile = file('skill.yaml', header + toYamlText(manifest));
  const files = [yamlFile, script];
  const check = await validateManifest(yamlFile.data, 'yaml', { file: 'skill.yaml', bundle: memorySource(files, spec.dirName), bundleLabel: spec.dirName });
  return { files, diagnostics: [...check.diagnostics] };
}

/** The files of a new skill, or the findings that stop it from being valid. */
export async function scaffoldSkill(spec: ScaffoldSpec): Promise<Scaffold> {
  if (spec.format === 'skill-md') {
    const files = skillMd(spec);
    const md = files.find((f) => f.path === 'SKILL.md') as MemoryFile;
    const listed = files.map((f) => ({ path: f.path, size: f.data.length, mode: f.mode }));
    const check = checkSkillMd(md.data, { file: 'SKILL.md', dirName: spec.dirName, files: listed, dirLabel: spec.dirName });
    return check.valid ? { files: sortFiles(files), diagnostics: check.diagnostics } : { diagnostics: check.diagnostics };
  }
  if (spec.runtime === 'none') {
    return { diagnostics: [diag('USAGE', 'a skill.yaml bundle needs a runtime for its entrypoint', { hint: 'choose python, node or shell' })] };
  }
  const r = await manifestBundle(spec, spec.runtime);
  return r.diagnostics.some((d) => d.severity === 'error') ? { diagnostics: r.diagnostics } : { files: sortFiles(r.files), diagnostics: r.diagnostics };
}

function sortFiles(files: MemoryFile[]): MemoryFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
