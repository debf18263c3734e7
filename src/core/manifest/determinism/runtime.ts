import { diag } from '../../diagnostics.js';
import { PINNED_RUNTIMES } from '../model.js';
import { EXACT_RUNTIME_VERSION } from '../patterns.js';
import type { DeterminismCheck } from './check.js';

/**
 * Runtime pinning. python, node, shell and container are held to a pin by the loader
 * (RUNTIME_UNPINNED). A builtin runs as the skillctl release that ships it, so it needs no
 * runtime_version; one it does declare must name one release, or replays may run another.
 */
export const runtimeExact: DeterminismCheck = {
  name: 'runtime',
  check({ ep, pointer, unreadable, label }) {
    const version = ep.runtime_version;
    if (ep.runtime === undefined || PINNED_RUNTIMES.has(ep.runtime) || version === undefined || unreadable.has('runtime_version')) return [];
    if (EXACT_RUNTIME_VERSION.test(version)) return [];
    return [
      diag('DETERMINISM_RUNTIME_INEXACT', `entrypoint ${label}: runtime_version ${JSON.stringify(version)} is a range, tag or partial version, not one exact release`, {
        pointer: `${pointer}/runtime_version`,
        hint: 'write the exact skillctl version (e.g. 0.1.0), or leave runtime_version out: a builtin runs as the skillctl that ships it',
      }),
    ];
  },
};
