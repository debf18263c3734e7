/**
 * One agent session of the skill loading protocol (seed 004): the capabilities it has loaded
 * (its per-session cache), the tools they add under namespaced names, and the decisions about a
 * call (which tool, whether approval allows it). Independent of the MCP SDK, so the protocol's
 * behaviour is tested without a transport.
 */
import {
  loadFromView,
  matchBound,
  matchIntent,
  namespacedToolName,
  readRegistryView,
  summaryOf,
  viewEntries,
  type CapabilityBundle,
  type CapabilityMatch,
  type CapabilitySummary,
  type LoadError,
  type RegistryLocation,
  type RegistryView,
  type Tool,
} from '../core/registry/index.js';
import { compileSchema, type CompiledSchema } from '../core/json-schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';

/** Which write tools that require approval may run: none (the default), all, or named ones. */
export interface ApprovalMode {
  readonly all: boolean;
  /** Capability ids (every tool of the capability) and namespaced tool names. */
  readonly names: ReadonlySet<string>;
  /**
   * What each write tool the approval names was bound to when it was given (`approvedBindings`).
   * A call of a tool bound otherwise since, or published since, is not approved. Undefined: the
   * approval covers the tool whatever it is bound to.
   */
  readonly bindings?: ApprovedBindings;
}

/** Namespaced tool name -> its binding when the approval was given (`skill_id#entrypoint_id`, '' for none). */
export type ApprovedBindings = ReadonlyMap<string, string>;

function bindingKey(tool: Tool): string {
  return tool.binding === undefined ? '' : `${tool.binding.skill_id}#${tool.binding.entrypoint_id}`;
}

/** Whether `mode` approves the tool `toolName` of the capability, or, without one, any of its tools. */
function approves(mode: ApprovalMode, capabilityId: string, toolName?: string): boolean {
  if (mode.all || mode.names.has(capabilityId)) return true;
  return toolName !== undefined ? mode.names.has(toolName) : [...mode.names].some((n) => n.startsWith(`${capabilityId}__`));
}

/**
 * The bindings of every write tool `approval` names, as `view` publishes them. An approval is the
 * operator's word on what the registry offered when the server started: a capability republished
 * while it runs, its approved tool bound to another skill (or a built-in), or a tool added to a
 * capability approved by its id, must not run on it. A capability that cannot be loaded now
 * contributes nothing: its tools are refused until a restart approves them.
 */
export async function approvedBindings(view: RegistryView, approval: ApprovalMode): Promise<ApprovedBindings> {
  const out = new Map<string, string>();
  if (!approval.all && approval.names.size === 0) return out;
  for (const entry of viewEntries(view)) {
    const id = entry.capability_id;
    if (!approves(approval, id)) continue;
    const r = await loadFromView(view, id);
    if (!r.ok) continue;
    for (const tool of r.bundle.tools) {
      const name = namespacedToolName(id, tool.name);
      if (tool.policy.kind === 'write' && approves(approval, id, name)) out.set(name, bindingKey(tool));
    }
  }
  return out;
}

export const NO_APPROVAL: ApprovalMode = { all: false, names: new Set() };

/** Parses `--approve`: `all`, or a comma-separated list of capability ids and namespaced tool names. */
export function parseApproval(values: readonly string[]): ApprovalMode {
  const names = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  return { all: names.includes('all'), names: new Set(names.filter((n) => n !== 'all')) };
}

export interface SessionTool {
  /** The name the agent calls: `<capability_id>__<tool>`. */
  readonly name: string;
  readonly capabilityId: string;
  readonly tool: Tool;
}

export type RegistryError = { readonly code: string; readonly message: string; readonly hint?: string };

export type LoadOutcome =
  | { readonly ok: true; readonly bundle: CapabilityBundle; readonly cached: boolean; readonly tools: readonly string[] }
  | { readonly ok: false; readonly error: LoadError | RegistryError };

/**
 * What a session serves: one registry directory, or layers (upper first) read as one view, as
 * `skillctl registry` reads them (a project's registry over the shipped one).
 */
export type SessionRegistry = string | readonly RegistryLocation[];

export class Session {
  readonly #layers: readonly RegistryLocation[];
  readonly #approval: ApprovalMode;
  readonly #loaded = new Map<string, CapabilityBundle>();
  /** Each loaded tool's compiled args_schema, by namespaced name: arguments are checked before a call. */
  readonly #checkers = new Map<string, CompiledSchema>();

  constructor(registry: SessionRegistry, approval: ApprovalMode = NO_APPROVAL) {
    this.#layers = typeof registry === 'string' ? [{ dir: registry, source: 'flag', writable: true }] : registry;
    this.#approval = approval;
  }

  /** Every layer's index, read afresh, so a capability published since the last call appears. */
  async #view(): Promise<{ ok: true; view: RegistryView } | { ok: false; error: RegistryError }> {
    const read = await readRegistryView(this.#layers);
    return read.ok ? read : { ok: false, error: registryError(read.diagnostics) };
  }

  /** The capability ids loaded in this session, in load order. */
  get loaded(): readonly string[] {
    return [...this.#loaded.keys()];
  }

  /** The light index, read afresh (a capability published since the last call appears). */
  async list(): Promise<{ ok: true; capabilities: CapabilitySummary[] } | { ok: false; error: RegistryError }> {
    const read = await this.#view();
    if (!read.ok) return read;
    return { ok: true, capabilities: viewEntries(read.view).map(summaryOf) };
  }

  async match(query: string): Promise<{ ok: true; matches: CapabilityMatch[] } | { ok: false; error: RegistryError }> {
    const read = await this.#view();
    if (!read.ok) return read;
    const entries = viewEntries(read.view);
    const bound = matchBound(entries);
    if (bound !== undefined) return { ok: false, error: { code: bound.code, message: bound.message } };
    return { ok: true, matches: matchIntent(entries, query) };
  }

  /**
   * Loads a capability into the session. A capability already loaded comes from the session's
   * cache (seed: "subsequent uses: use cached version"); `reload` reads the registry again and,
   * when that fails, keeps the version the session had.
   */
  async load(id: string, reload = false): Promise<LoadOutcome> {
    const cached = this.#loaded.get(id);
    if (cached !== undefined && !reload) return { ok: true, bundle: cached, cached: true, tools: this.#namesOf(cached) };
    const read = await this.#view();
    if (!read.ok) return read;
    const r = await loadFromView(read.view, id);
    if (!r.ok) return { ok: false, error: r.error };
    // A tool is offered with its args_schema as inputSchema, and its arguments are checked
    // against it: a schema that cannot be compiled, or that is not an object schema (MCP
    // requires one), keeps the whole capability out rather than offer a tool nothing can check.
    const checkers = new Map<string, CompiledSchema>();
    for (const tool of r.bundle.tools) {
      const name = namespacedToolName(id, tool.name);
      const compiled = await compileArgsSchema(tool);
      if ('error' in compiled) return { ok: false, error: schemaMalformed(id, tool, compiled.error) };
      checkers.set(name, compiled);
    }
    const before = this.#loaded.get(id);
    if (before !== undefined) for (const name of this.#namesOf(before)) this.#checkers.delete(name);
    for (const [name, c] of checkers) this.#checkers.set(name, c);
    this.#loaded.set(id, r.bundle);
    return { ok: true, bundle: r.bundle, cached: false, tools: this.#namesOf(r.bundle) };
  }

  #namesOf(b: CapabilityBundle): string[] {
    return b.tools.map((t) => namespacedToolName(b.capability_id, t.name));
  }

  /** Every tool the loaded capabilities add, namespaced, in load order then file order. */
  tools(): SessionTool[] {
    return [...this.#loaded.values()].flatMap((b) => b.tools.map((tool) => ({ name: namespacedToolName(b.capability_id, tool.name), capabilityId: b.capability_id, tool })));
  }

  find(name: string): SessionTool | undefined {
    return this.tools().find((t) => t.name === name);
  }

  /** Why `args` do not fit the tool's args_schema (empty when they do). */
  checkArgs(t: SessionTool, args: unknown): Diagnostic[] {
    return this.#checkers.get(t.name)?.check(args) ?? [];
  }

  /**
   * The tool as the registry publishes it now: its kind, approval and binding, which a call obeys.
   * A session keeps the bundle it loaded (its description and schema), but a capability
   * republished with `requires_approval` added, or its tool bound to another skill, must hold
   * from the next call, not from the next `capability_skill_reload` the agent may never send.
   * Undefined when the registry no longer offers the tool (the error when it cannot be read).
   */
  async current(t: SessionTool): Promise<{ ok: true; tool: SessionTool | undefined } | { ok: false; error: LoadError | RegistryError }> {
    const read = await this.#view();
    if (!read.ok) return read;
    const r = await loadFromView(read.view, t.capabilityId);
    if (!r.ok) return r.error.code === 'CAPABILITY_NOT_FOUND' ? { ok: true, tool: undefined } : { ok: false, error: r.error };
    const tool = r.bundle.tools.find((x) => x.name === t.tool.name);
    return { ok: true, tool: tool === undefined ? undefined : { ...t, tool } };
  }

  /** A capability's skill_doc, read from the registry without loading it into the session. */
  async skillDoc(id: string): Promise<{ ok: true; text: string } | { ok: false; error: LoadError | RegistryError }> {
    const read = await this.#view();
    if (!read.ok) return read;
    const r = await loadFromView(read.view, id);
    return r.ok ? { ok: true, text: r.bundle.skill_doc } : { ok: false, error: r.error };
  }

  /**
   * Why this tool may not run without asking the user, or undefined when it may. Reads and writes
   * without approval may; an approval write only when this server's approval mode grants it and
   * the tool is still what was approved (`ApprovalMode.bindings`: the same entrypoint, not
   * published after the approval was given).
   */
  approvalRefusal(t: SessionTool): ApprovalRefusal | undefined {
    if (t.tool.policy.kind !== 'write' || t.tool.policy.requires_approval !== true) return undefined;
    if (!approves(this.#approval, t.capabilityId, t.name)) {
      return {
        message: `${t.name} writes and requires the user's approval; this server was not started with an approval mode that grants it, so nothing ran`,
        hint: `ask the user; the operator can start skillctl mcp with --approve ${t.name} (or --approve ${t.capabilityId}, --approve all)`,
      };
    }
    const then = this.#approval.bindings;
    if (then === undefined) return undefined;
    const was = then.get(t.name);
    const now = bindingKey(t.tool);
    const hint = 'restart the server to approve what the registry publishes now (after reviewing it)';
    if (was === undefined) return { message: `${t.name} was published after this server's approval was given, so the approval does not cover it; nothing ran`, hint };
    if (was !== now) return { message: `${t.name} is bound to ${now || 'no skill'} now, not to ${was || 'no skill'} as when this server's approval was given, so the approval does not cover it; nothing ran`, hint };
    return undefined;
  }
}

/** What a call refused for want of approval tells the client. */
export interface ApprovalRefusal {
  readonly message: string;
  readonly hint: string;
}

function registryError(ds: readonly { code: string; message: string; hint?: string }[]): RegistryError {
  const d = ds[0];
  return { code: d?.code ?? 'REGISTRY_INDEX_INVALID', message: d?.message ?? 'the registry cannot be read', ...(d?.hint !== undefined ? { hint: d.hint } : {}) };
}

async function compileArgsSchema(tool: Tool): Promise<CompiledSchema | { error: Diagnostic }> {
  const schema = tool.args_schema as unknown;
  if (schema === null || typeof schema !== 'object' || (schema as { type?: unknown }).type !== 'object') {
    return { error: { code: 'TOOL_SCHEMA_INVALID', severity: 'error', message: 'args_schema must be a JSON Schema of type "object" (MCP describes arguments as an object)' } };
  }
  return compileSchema(schema, { validateSchema: true });
}

function schemaMalformed(id: string, tool: Tool, d: Diagnostic): LoadError {
  const message = `args_schema of tool '${tool.name}' is not a valid JSON Schema: ${d.message}`;
  return {
    code: 'SKILL_MALFORMED',
    message: `Skill '${id}' has an invalid tool schema`,
    details: message,
    findings: [{ code: 'TOOL_SCHEMA_INVALID', message, file: 'tools.json', field: 'args_schema', tool: tool.name }],
  };
}
