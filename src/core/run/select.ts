/** Which entrypoint of a manifest a run executes. */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Entrypoint, Manifest } from '../manifest/index.js';

/** The entrypoint named `id`; without one, the only entrypoint, else the one called `main`. */
export function selectEntrypoint(m: Manifest, id: string | undefined): Entrypoint | Diagnostic {
  const ids = m.entrypoints.map((e) => e.entrypoint_id).join(', ');
  if (id !== undefined) return m.entrypoints.find((e) => e.entrypoint_id === id) ?? diag('RUN_ENTRYPOINT_NOT_FOUND', `no entrypoint ${id}; there are ${ids}`);
  if (m.entrypoints.length === 1) return m.entrypoints[0] as Entrypoint;
  return m.entrypoints.find((e) => e.entrypoint_id === 'main') ?? diag('RUN_ENTRYPOINT_REQUIRED', `choose one of ${ids} with --entrypoint`);
}

/** `required_environment_variables`, declared on the entrypoint or inherited from the manifest. */
export function requiredEnv(m: Manifest, ep: Entrypoint): readonly string[] {
  return ep.required_environment_variables ?? m.execution_context?.required_environment_variables ?? [];
}
