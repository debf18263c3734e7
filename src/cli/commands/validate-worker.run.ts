/**
 * Worker-thread entry of `skillctl validate` (dist/cmd/validate-worker.cjs): validates its share
 * of the targets and posts the plain results back. Parsing YAML is CPU-bound, so a large run is
 * split across cores.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { checkTarget, CONCURRENCY, mapLimited, type WorkerRequest } from '../validate-targets.js';

const request = workerData as WorkerRequest | undefined;
if (!isMainThread && parentPort !== null && request?.kind === 'skillctl.validate') {
  const port = parentPort;
  mapLimited(request.targets, CONCURRENCY, (t) => checkTarget(request.cwd, t, request.fix, request.skill)).then(
    (results) => port.postMessage({ ok: true, results }),
    (err: unknown) => port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
}
