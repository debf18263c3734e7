/**
 * The heap limits a run of a wasm skill in a bundle directory is expected to give its module's
 * thread, worked out before the run has read the bundle, so that the thread can be started
 * early (runtimes/wasm.ts, startSpareWasmThread) and boot while the bundle is validated.
 *
 * It is a guess from the bundle's skill.json, parsed as plain JSON and not validated: only the
 * run's own validation decides anything. The guess fixes nothing either: the run hands its job to
 * the early thread only when its own limits, worked out from the validated manifest and the
 * policy, are exactly these; otherwise the thread is stopped and the run starts one as it always
 * did. A wrong guess costs a thread start, never a limit. A skill.yaml (its parser is a large
 * part of the validation) or an archive gets no guess.
 */
import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import { readBounded } from '../../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../../manifest/guards.js';
import type { Manifest } from '../../manifest/index.js';
import type { HostPolicy } from '../../policy/index.js';
import { expectedThreadLimits } from '../runtimes/builtin-worker.js';
import { selectEntrypoint } from '../select.js';

/** The thread limits, if `dir` holds a skill.json whose selected entrypoint is a wasm one; else undefined. */
export async function expectedWasmThreadLimits(dir: string, entrypointId: string | undefined, policy: HostPolicy): Promise<ResourceLimits | undefined> {
  // Not through a link, and never blocking on a FIFO: a guess must cost next to nothing.
  const read = await readBounded(join(dir, 'skill.json'), { maxBytes: MANIFEST_MAX_BYTES, followLinks: false });
  if (!read.ok) return undefined;
  try {
    const manifest = JSON.parse(read.bytes.toString('utf8')) as Manifest;
    const ep = selectEntrypoint(manifest, entrypointId);
    if (!('entrypoint_id' in ep) || ep.runtime !== 'wasm') return undefined;
    return expectedThreadLimits(manifest, entrypointId, policy);
  } catch {
    // Not JSON, or not shaped like a manifest: the validation says why; here, no guess.
    return undefined;
  }
}
