/** What `skillctl registry list|match|load|validate|publish` prints. */
import { summaryOf, type RegistrySource, type CapabilityBundle, type CapabilityMatch, type LayeredEntry, type LoadError, type PublishedCapability, type PublishResult } from '../../core/registry/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Style } from '../context.js';
import { count, plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { visible, visibleLine } from '../../core/visible.js';

export interface RegistryRenderOptions {
  readonly json: boolean;
  readonly style: Style;
}

/**
 * `registry list`: each capability with the layer it comes from (`origin`), and the layer it hides
 * when it shadows one (`shadows`): a project capability with a shipped id is never silently used.
 */
export function renderList(capabilities: readonly LayeredEntry[], opts: RegistryRenderOptions): string {
  if (opts.json) {
    return renderJson({
      capabilities: capabilities.map((c) => ({ ...summaryOf(c.entry), origin: c.origin, ...(c.shadows !== undefined ? { shadows: c.shadows } : {}) })),
    }).trimEnd();
  }
  if (capabilities.length === 0) return 'no capabilities published';
  const { style } = opts;
  const lines = capabilities.map(({ entry: c, origin, shadows }) => {
    const from = shadows !== undefined ? style.yellow(`[${origin}, shadows ${visible(shadows)}]`) : style.dim(`[${origin}]`);
    // A registry's names and descriptions are its publisher's words: shown, never obeyed.
    return `${style.bold(visibleLine(c.capability_id))}  ${visibleLine(c.name)}: ${visibleLine(c.description)}  ${from}\n    ${style.dim('triggers:')} ${visibleLine(c.intent_triggers.join(', '))}`;
  });
  const shadowing = capabilities.filter((c) => c.shadows !== undefined);
  for (const c of shadowing) {
    lines.push(`${style.yellow('note:')} ${visible(c.entry.capability_id)} from the ${c.origin} registry shadows the ${visible(c.shadows ?? '')} capability of the same id`);
  }
  return lines.join('\n');
}

export function renderMatches(query: string, matches: readonly CapabilityMatch[], opts: RegistryRenderOptions): string {
  if (opts.json) return renderJson({ query, matches }).trimEnd();
  if (matches.length === 0) return `no capability's triggers match ${JSON.stringify(query)}`;
  const { style } = opts;
  return matches
    .map((m, i) => {
      const triggers = m.matched_triggers.map((t) => visibleLine(`${JSON.stringify(t.trigger)}${t.full ? '' : ' (partly)'} ← ${t.words.join(' ')}`));
      return `${i + 1}. ${style.bold(visibleLine(m.capability_id))} (${visibleLine(m.name)})  score ${m.score}\n    ${style.dim('matched:')} ${triggers.join('; ')}`;
    })
    .join('\n');
}

function renderBundle(b: CapabilityBundle, style: Style): string {
  const tools = b.tools.map((t) => {
    const policy = t.policy.kind === 'write' ? (t.policy.requires_approval === true ? 'write, needs approval' : 'write') : 'read';
    const bound = t.binding !== undefined ? ` → ${t.binding.skill_id}#${t.binding.entrypoint_id}` : '';
    return `  ${style.bold(visibleLine(t.name))} (${policy})${visibleLine(bound)}: ${visibleLine(t.description)}`;
  });
  const ui = b.ui_schemas.map((u) => visibleLine(`  ${u.schema_id}${u.dialect !== undefined ? ` (${u.dialect})` : ''}`));
  return [
    style.bold(visible(`== ${b.capability_id} (${b.version})`)),
    visible(b.skill_doc.trimEnd()),
    '',
    style.bold('Tools'),
    ...(tools.length > 0 ? tools : ['  (none)']),
    style.bold('UI schemas'),
    ...(ui.length > 0 ? ui : ['  (none)']),
  ].join('\n');
}

export function renderBundles(bundles: readonly CapabilityBundle[], opts: RegistryRenderOptions): string {
  return opts.json ? renderJson({ capabilities: bundles }).trimEnd() : bundles.map((b) => renderBundle(b, opts.style)).join('\n\n');
}

/** The protocol's error for a capability that cannot be loaded: the JSON document (stdout), or lines for stderr. */
export function renderLoadError(e: LoadError, opts: RegistryRenderOptions): string {
  if (opts.json) return renderJson({ error: e }).trimEnd();
  const lines = [`${opts.style.red('error')} ${e.code}: ${visible(e.message)}`];
  if (e.code === 'CAPABILITY_NOT_FOUND') {
    lines.push(visible(`  available: ${e.available_capabilities.length > 0 ? e.available_capabilities.join(', ') : '(none)'}`));
  } else {
    lines.push(`  ${visible(e.details)}`);
    for (const f of e.findings) lines.push(visible(`  ${f.file}${f.pointer !== undefined ? ` ${f.pointer}` : ''}${f.line !== undefined ? `:${f.line}` : ''}  ${f.code}  ${f.message}`));
  }
  return lines.join('\n');
}

function publishedJson(c: PublishedCapability, published: boolean): Record<string, unknown> {
  return {
    dir: c.label,
    capability_id: c.validation.capability_id ?? null,
    valid: c.validation.valid,
    published: published && c.entry !== undefined,
    unchanged: c.unchanged === true,
    digest: c.entry?.digest ?? null,
    shadows: c.shadows ?? null,
    diagnostics: c.validation.diagnostics,
  };
}

export interface PublishRenderOptions extends RegistryRenderOptions {
  readonly quiet: boolean;
  readonly registry: string;
  /** Where the registry came from (`origin` in --json). */
  readonly origin: RegistrySource;
  /** The registry as the summary names it: its path and origin. */
  readonly registryLabel: string;
  /** `registry validate`: nothing is published. */
  readonly dryRun: boolean;
  /** How many directories were named. */
  readonly dirs: number;
  readonly exitCode: number;
}

/** `registry validate` and `registry publish`; `all` is every finding, sorted. */
export function renderPublish(result: PublishResult, all: readonly Diagnostic[], opts: PublishRenderOptions): string {
  const published = result.published && !opts.dryRun;
  if (opts.json) {
    return renderJson({
      registry: opts.registry,
      origin: opts.origin,
      published,
      results: result.capabilities.map((c) => publishedJson(c, published)),
      ...(result.capabilities.length === 0 ? { diagnostics: all } : {}),
    }).trimEnd();
  }
  const { style } = opts;
  const out: string[] = [];
  const shown = opts.quiet ? all.filter((d) => d.severity === 'error') : all;
  if (shown.length > 0) out.push(renderGrouped(shown, { style }));
  const c = count(all);
  const tally = `${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
  if (opts.dryRun) {
    const bad = result.capabilities.filter((r) => !r.validation.valid).length;
    const what = `${opts.dirs} ${opts.dirs === 1 ? 'capability' : 'capabilities'} checked`;
    out.push(`${opts.exitCode === 0 ? style.green('✔ ') : style.red('✖ ')}${what}: ${bad === 0 && opts.exitCode === 0 ? 'all valid' : `${bad} invalid`}; ${tally}`);
  } else if (result.published) {
    for (const r of result.capabilities) out.push(`${style.green('✔')} ${r.unchanged === true ? 'unchanged' : 'published'} ${visible(r.entry?.capability_id ?? r.label)} (${r.entry?.digest ?? ''})`);
    out.push(`into ${opts.registryLabel}`);
  } else {
    out.push(`${style.red('✖')} nothing published; ${tally}`);
  }
  return out.join('\n');
}
