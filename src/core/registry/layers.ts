/**
 * The registry a command sees: one or more registries, read as layers. Without `--registry` or
 * `$SKILLCTL_REGISTRY`, a project's registry (`.skillctl/registry`) lies over the one shipped with
 * skillctl, so publishing a capability into a project adds it beside the built-in ones instead of
 * hiding them all (locate.ts decides the layers). A capability id in two layers is the upper
 * layer's: the project's shadows the shipped one, and the view says so, so a shadowing is never
 * silent. list, match and load see exactly the same capabilities.
 */
import type { Diagnostic } from '../diagnostics.js';
import { readIndex } from './index-file.js';
import { capabilityNotFound, loadCapability, type LoadResult } from './load.js';
import type { RegistryLocation, RegistrySource } from './locate.js';
import type { IndexEntry, RegistryIndex } from './model.js';

/** One capability of a view and the layer it comes from. */
export interface LayeredEntry {
  readonly entry: IndexEntry;
  /** The layer the capability comes from. */
  readonly origin: RegistrySource;
  /** The lower layer whose capability of the same id this one hides, if any. */
  readonly shadows?: RegistrySource;
}

export interface RegistryLayer {
  readonly location: RegistryLocation;
  readonly index: RegistryIndex;
}

export interface RegistryView {
  /** The registries read, upper first. */
  readonly layers: readonly RegistryLayer[];
  /** The capabilities the view offers, sorted by capability_id: of each id, the upper layer's. */
  readonly capabilities: readonly LayeredEntry[];
}

export type ViewRead =
  | { readonly ok: true; readonly view: RegistryView }
  | { readonly ok: false; readonly location: RegistryLocation; readonly diagnostics: readonly Diagnostic[] };

function byId(a: LayeredEntry, b: LayeredEntry): number {
  return a.entry.capability_id < b.entry.capability_id ? -1 : a.entry.capability_id > b.entry.capability_id ? 1 : 0;
}

/** The view of already-read layers (upper first). */
export function layeredView(layers: readonly RegistryLayer[]): RegistryView {
  const first = new Map<string, LayeredEntry>();
  for (const { location, index } of layers) {
    for (const entry of index.capabilities) {
      const upper = first.get(entry.capability_id);
      if (upper === undefined) first.set(entry.capability_id, { entry, origin: location.source });
      else if (upper.shadows === undefined) first.set(entry.capability_id, { ...upper, shadows: location.source });
    }
  }
  return { layers, capabilities: [...first.values()].sort(byId) };
}

/** Reads the index of every layer (upper first); any layer that cannot be read fails the view. */
export async function readRegistryView(locations: readonly RegistryLocation[]): Promise<ViewRead> {
  const layers: RegistryLayer[] = [];
  for (const location of locations) {
    const read = await readIndex(location.dir);
    if (!read.ok) return { ok: false, location, diagnostics: read.diagnostics };
    layers.push({ location, index: read.index });
  }
  return { ok: true, view: layeredView(layers) };
}

/** The index entries a view offers, for matching and listing. */
export function viewEntries(view: RegistryView): IndexEntry[] {
  return view.capabilities.map((c) => c.entry);
}

/** Loads capability `id` from the layer the view takes it from. */
export async function loadFromView(view: RegistryView, id: string): Promise<LoadResult> {
  const layer = view.layers.find((l) => l.index.capabilities.some((e) => e.capability_id === id));
  if (layer === undefined) return { ok: false, error: capabilityNotFound(view.capabilities.map((c) => c.entry.capability_id), id) };
  return loadCapability(layer.location.dir, layer.index, id);
}
