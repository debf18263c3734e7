/**
 * One agent session of the skill loading protocol (seed 004): the capabilities it has loaded
 * (its per-session cache), the tools they add under namespaced names, and the decisions about a
 * call (which tool, whether approval allows it). Independent of the MCP SDK, so the protocol's
 * behaviour is tested without a transport.
 */
import {
  loadCapability,
  matchIntent,
  namespacedToolName,
  readIndex,
  summaryOf,
  type CapabilityBundle,
  type CapabilityMatch,
  type CapabilitySummary,
  type LoadError,
  type Tool,
} from '../core/registry/index.js';

/** Which write tools that require approval may run: none (the default), all, or named ones. */
export interface ApprovalMode {
  readonly all: boolean;
  /** Capability ids (every tool of the capability) and namespaced tool names. */
  readonly names: ReadonlySet<string>;
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

export class Session {
  readonly #registry: string;
  readonly #approval: ApprovalMode;
  readonly #loaded = new Map<string, CapabilityBundle>();

  constructor(registry: string, approval: ApprovalMode = NO_APPROVAL) {
    this.#registry = registry;
    this.#approval = approval;
  }

  /** The capability ids loaded in this session, in load order. */
  get loaded(): readonly string[] {
    return [...this.#loaded.keys()];
  }

  /** The light index, read afresh (a capability published since the last call appears). */
  async list(): Promise<{ ok: true; capabilities: CapabilitySummary[] } | { ok: false; error: RegistryError }> {
    const read = await readIndex(this.#registry);
    if (!read.ok) return { ok: false, error: registryError(read.diagnostics) };
    return { ok: true, capabilities: read.index.capabilities.map(summaryOf) };
  }

  async match(query: string): Promise<{ ok: true; matches: CapabilityMatch[] } | { ok: false; error: RegistryError }> {
    const read = await readIndex(this.#registry);
    if (!read.ok) return { ok: false, error: registryError(read.diagnostics) };
    return { ok: true, matches: matchIntent(read.index.capabilities, query) };
  }

  /**
   * Loads a capability into the session. A capability already loaded comes from the session's
   * cache (seed: "subsequent uses: use cached version"); `reload` reads the registry again and,
   * when that fails, keeps the version the session had.
   */
  async load(id: string, reload = false): Promise<LoadOutcome> {
    const cached = this.#loaded.get(id);
    if (cached !== undefined && !reload) return { ok: true, bundle: cached, cached: true, tools: this.#namesOf(cached) };
    const read = await readIndex(this.#registry);
    if (!read.ok) return { ok: false, error: registryError(read.diagnostics) };
    const r = await loadCapability(this.#registry, read.index, id);
    if (!r.ok) return { ok: false, error: r.error };
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

  /** May this tool run without asking? Reads and writes without approval may; approval writes only when granted. */
  approved(t: SessionTool): boolean {
    if (t.tool.policy.kind !== 'write' || t.tool.policy.requires_approval !== true) return true;
    return this.#approval.all || this.#approval.names.has(t.name) || this.#approval.names.has(t.capabilityId);
  }
}

function registryError(ds: readonly { code: string; message: string; hint?: string }[]): RegistryError {
  const d = ds[0];
  return { code: d?.code ?? 'REGISTRY_INDEX_INVALID', message: d?.message ?? 'the registry cannot be read', ...(d?.hint !== undefined ? { hint: d.hint } : {}) };
}
