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
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import { readBounded } from '../../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../../manifest/guards.js';
import type { Manifest } from '../../manifest/index.js';
import type { HostPolicy } from '../../policy/index.js';
import { expectedThreadLimits } from '../runtimes/builtin-worker.js';
import { guessThreadLimits } from '../thread-limits.js';
import { selectEntrypoint } from '../select.js';

/** The thread limits, if `dir` holds a skill.json whose selected entrypoint is a wasm one; else undefined. */
export async function expectedWasmThreadLimits(dir: string, entrypointId: string | undefined, policy: HostPolicy): Promise<ResourceLimits | undefined> {
  // Not through a link, and never blocking on a FIFO: a guess must cost next to nothing.
  const read = await readBounded(join(dir, 'skill.json'), { maxBytes: MANIFEST_MAX_BYTES, followLinks: false });
  return read.ok ? wasmThreadLimitsOf(read.bytes, entrypointId, policy) : undefined;
}

/** The guess from skill.json's bytes, read already. */
export function wasmThreadLimitsOf(bytes: Uint8Array, entrypointId: string | undefined, policy: HostPolicy): ResourceLimits | undefined {
  try {
    const manifest = parsed(bytes);
    const ep = selectEntrypoint(manifest, entrypointId);
    if (!('entrypoint_id' in ep) || ep.runtime !== 'wasm') return undefined;
    return expectedThreadLimits(manifest, entrypointId, policy);
  } catch {
    // Not JSON, or not shaped like a manifest: the validation says why; here, no guess.
    return undefined;
  }
}

export interface EarlyGuess {
  readonly limits: ResourceLimits;
  /** skill.json's bytes, for the run's own guess under the policy in force (wasmThreadLimitsOf). */
  readonly manifest: Uint8Array;
}

/**
 * The same guess under the default policy, which caps nothing, made synchronously: for the
 * start-up wing (src/entry/wasm-early.ts), before the CLI loads and the policy in force is known.
 * Kept light on purpose, as that bundle loads on every `run` of a directory (../thread-limits.ts).
 * The same guards as the run's guess: no link, no FIFO, a regular file of at most
 * MANIFEST_MAX_BYTES.
 */
export function earlyWasmThreadGuess(dir: string, entrypointId: string | undefined): EarlyGuess | undefined {
  const manifest = readSkillJsonSync(dir);
  if (manifest === undefined) return undefined;
  let data: unknown;
  try {
    data = parsed(manifest);
  } catch {
    return undefined;
  }
  const limits = guessThreadLimits(data, entrypointId, 'wasm');
  return limits === undefined ? undefined : { limits, manifest };
}

function parsed(bytes: Uint8Array): Manifest {
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')) as Manifest;
}

function readSkillJsonSync(dir: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, 'skill.json'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MANIFEST_MAX_BYTES) return undefined;
    // One byte more than fstat said: a file that grew since is no guess, not a truncated one.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let filled = 0;
    while (filled < buf.length) {
      const n = readSync(fd, buf, filled, buf.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === st.size ? buf.subarray(0, filled) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
