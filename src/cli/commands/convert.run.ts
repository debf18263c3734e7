import { rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import {
  agentSkillToManifest,
  findSkillMd,
  manifestToSkillMd,
  scriptsOf,
  validateAgentSkill,
  type RuntimeVersions,
  type ScriptRuntime,
} from '../../core/agent-skills/index.js';
import { dirSource } from '../../core/bundle/index.js';
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { errnoCode, InternalError, SkillctlError } from '../../core/errors.js';
import { createFileAtomic, readInputFile, writeFileAtomic } from '../../core/fs/index.js';
import { findManifest, fixDigests, MANIFEST_MAX_BYTES, validateBundle } from '../../core/manifest/index.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import { detectRuntimeVersion } from '../runtime-versions.js';
import type { ConvertOptions } from './convert.js';

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Writes `path`: a new file atomically and exclusively, or with --force over the old one. */
async function write(path: string, text: string, force: boolean): Promise<void> {
  if (force) await writeFileAtomic(path, text);
  else await createFileAtomic(path, text);
}

function report(ctx: Context, diagnostics: readonly Diagnostic[], result: Record<string, unknown> | undefined, summary: string | undefined): number {
  const all = sortDiagnostics(diagnostics);
  const code = exitCodeFor(all);
  if (ctx.opts.json) {
    ctx.out(renderJson({ ...(result ?? { written: null }), diagnostics: all }).trimEnd());
    return code;
  }
  if (all.length > 0) (code === 0 ? ctx.note : ctx.error)(renderGrouped(all, { style: ctx.style }));
  if (summary !== undefined) ctx.out(summary);
  return code;
}

const VERSION_FLAG: Record<ScriptRuntime, keyof ConvertOptions> = { python: 'pythonVersion', node: 'nodeVersion', shell: 'shellVersion' };

async function toManifest(ctx: Context, dir: string, label: string, opts: ConvertOptions): Promise<number> {
  const validation = await validateAgentSkill(dir, { label, nameCharset: opts.nameCharset ?? 'ascii' });
  if (!validation.valid) return report(ctx, validation.diagnostics, undefined, undefined);
  const source = dirSource(dir);
  const { scripts } = await scriptsOf(source, validation);
  const versions: { -readonly [K in ScriptRuntime]?: string } = {};
  for (const runtime of new Set(scripts.map((s) => s.runtime))) {
    const given = opts[VERSION_FLAG[runtime]] as string | undefined;
    const v = given ?? detectRuntimeVersion(ctx.io, runtime);
    if (v !== undefined) versions[runtime] = v;
  }
  const target = join(dir, 'skill.yaml');
  const file = join(label, 'skill.yaml');
  if (await exists(join(dir, 'skill.json'))) {
    throw new SkillctlError('OUTPUT_EXISTS', `${join(label, 'skill.json')} exists; a bundle holds one manifest`, { hint: 'convert it instead, or remove it' });
  }
  if (opts.force !== true && (await exists(target))) {
    throw new SkillctlError('OUTPUT_EXISTS', `${file} already exists`, { hint: 'pass --force to replace it' });
  }
  const conv = await agentSkillToManifest(source, validation, {
    file,
    runtimeVersions: versions as RuntimeVersions,
    ...(opts.id !== undefined ? { id: opts.id } : {}),
    ...(opts.skillVersion !== undefined ? { version: opts.skillVersion } : {}),
  });
  const diagnostics = [...validation.diagnostics, ...conv.diagnostics];
  if (conv.text === undefined || conv.manifest === undefined) return report(ctx, diagnostics, undefined, undefined);
  await write(target, conv.text, opts.force === true);
  const eps = conv.manifest.entrypoints as { entrypoint_id: string; runtime: string; runtime_version: string; command: string[] }[];
  const lines = eps.map((e) => `  ${e.entrypoint_id}: ${e.command.join(' ')} (${e.runtime} ${e.runtime_version})`);
  return report(
    ctx,
    diagnostics,
    {
      written: file,
      format: 'manifest',
      skill_id: conv.manifest.skill_id,
      skill_version: conv.manifest.skill_version,
      manifest_digest: conv.manifest.manifest_digest,
      content_digest: conv.manifest.content_digest,
      entrypoints: eps.map((e) => ({ entrypoint_id: e.entrypoint_id, runtime: e.runtime, runtime_version: e.runtime_version, command: e.command })),
    },
    [`wrote ${file}: ${eps.length} entrypoint${eps.length === 1 ? '' : 's'}, no permissions (request what the scripts need)`, ...lines].join('\n'),
  );
}

async function toSkillMd(ctx: Context, dir: string, label: string, opts: ConvertOptions): Promise<number> {
  const before = await validateBundle(dir, label);
  if (!before.valid || before.manifest === undefined) return report(ctx, before.diagnostics, undefined, undefined);
  const existing = await findSkillMd(dir);
  const mdPath = 'diagnostic' in existing ? join(dir, 'SKILL.md') : existing.path;
  const mdFile = join(label, basename(mdPath));
  const oldMd = 'diagnostic' in existing ? undefined : await readInputFile(existing.path, mdFile, { maxBytes: MANIFEST_MAX_BYTES });
  if (oldMd !== undefined && opts.force !== true) throw new SkillctlError('OUTPUT_EXISTS', `${mdFile} already exists`, { hint: 'pass --force to replace it' });
  const conv = manifestToSkillMd(before.manifest, {
    dirName: basename(resolve(dir)),
    files: before.files ?? [],
    file: mdFile,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
  });
  if (conv.text === undefined) return report(ctx, conv.diagnostics, undefined, undefined);

  const found = await findManifest(dir);
  if ('diagnostic' in found) throw new SkillctlError('BUNDLE_UNREADABLE', 'the manifest disappeared during the conversion');
  const oldManifest = (await readInputFile(found.path, found.path, { maxBytes: MANIFEST_MAX_BYTES })).toString('utf8');
  await write(mdPath, conv.text, opts.force === true);
  // SKILL.md is now a file of the bundle: content_digest, and so manifest_digest, change.
  const restore = async (): Promise<void> => {
    if (oldMd === undefined) await rm(mdPath, { force: true });
    else await writeFileAtomic(mdPath, oldMd);
    await writeFileAtomic(found.path, oldManifest);
  };
  try {
    const fix = fixDigests(await validateBundle(dir, label));
    if (fix.text !== undefined) await writeFileAtomic(found.path, fix.text);
    const after = await validateBundle(dir, label);
    const skill = await validateAgentSkill(dir, { label, nameCharset: opts.nameCharset ?? 'ascii' });
    if (!after.valid || !skill.valid) {
      await restore();
      const first = [...after.diagnostics, ...skill.diagnostics].find((d) => d.severity === 'error');
      throw new InternalError(`the converted bundle did not validate (${first?.code ?? 'unknown'}: ${first?.message ?? ''}); the files were restored`);
    }
    return report(
      ctx,
      [...conv.diagnostics, ...skill.diagnostics],
      {
        written: mdFile,
        format: 'skill-md',
        name: conv.name,
        manifest: after.file,
        manifest_digest: after.digests.manifest.computed ?? null,
        content_digest: after.digests.content.computed ?? null,
      },
      `wrote ${mdFile} (name ${conv.name}); updated the digests in ${after.file}`,
    );
  } catch (err) {
    await restore();
    throw err;
  }
}

export async function run(ctx: Context, dirArg: string, opts: ConvertOptions): Promise<number> {
  const dir = isAbsolute(dirArg) ? dirArg : join(ctx.io.cwd, dirArg);
  try {
    if (!(await stat(dir)).isDirectory()) throw new SkillctlError('INPUT_UNREADABLE', `${dirArg} is not a directory`);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw new SkillctlError('INPUT_NOT_FOUND', `${dirArg} does not exist`);
    throw err;
  }
  const hasMd = !('diagnostic' in (await findSkillMd(dir)));
  const hasManifest = !('diagnostic' in (await findManifest(dir)));
  let to = opts.to;
  if (to === undefined) {
    if (hasMd && hasManifest) {
      throw new SkillctlError('USAGE', `${dirArg} has both SKILL.md and a manifest`, { hint: 'say which to write with --to manifest or --to skill-md (and --force)' });
    }
    if (!hasMd && !hasManifest) throw new SkillctlError('NO_INPUT', `${dirArg} has neither SKILL.md nor skill.yaml / skill.json`, { hint: 'create one with skillctl init' });
    to = hasMd ? 'manifest' : 'skill-md';
  }
  if (to === 'manifest' && !hasMd) throw new SkillctlError('NO_INPUT', `${dirArg} has no SKILL.md to convert`);
  if (to === 'skill-md' && !hasManifest) throw new SkillctlError('NO_INPUT', `${dirArg} has no skill.yaml or skill.json to convert`);
  return to === 'manifest' ? toManifest(ctx, dir, dirArg, opts) : toSkillMd(ctx, dir, dirArg, opts);
}
