/**
 * `pack` compresses in a worker thread while this thread reads, hashes and writes tar headers, as
 * `tar -czf` runs gzip beside tar. The worker is fed exactly the pieces the in-thread compressor
 * would get, so the archive's bytes do not depend on where DEFLATE ran (the golden test checks).
 */
import { Worker } from 'node:worker_threads';
import { inThreadDeflate, type DeflateSink } from '../core/pack/index.js';

/** The worker's program: boot (code caches), load the pack bundle, compress what it is sent. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(require('node:path').join(workerData.dist, 'boot.cjs'));
globalThis[Symbol.for('skillctl.loadChunk')]('cmd/pack.cjs').deflateWorker(parentPort);`;

interface Port {
  on(event: 'message', fn: (m: { piece: Uint8Array; final: boolean }) => void): unknown;
  postMessage(value: unknown, transfer?: ArrayBuffer[]): void;
}

/** Runs in the worker: DEFLATE every piece received; post the stream after the final one. */
export function deflateWorker(port: Port): void {
  const sink = inThreadDeflate();
  port.on('message', (m) => {
    sink.push(m.piece, m.final);
    if (m.final) {
      void sink.result().then((chunks) => {
        // A memory of its own (not Buffer's shared pool, which cannot be transferred).
        const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) {
          bytes.set(c, at);
          at += c.length;
        }
        port.postMessage(bytes, [bytes.buffer]);
      });
    }
  });
}

/** A DEFLATE sink in a worker thread, or undefined when workers cannot start (no dist/). */
export function workerDeflate(): (() => DeflateSink) | undefined {
  const dist = (globalThis as Record<symbol, unknown>)[Symbol.for('skillctl.distDir')];
  if (typeof dist !== 'string') return undefined;
  return () => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dist } });
    const done = new Promise<Buffer[]>((resolvePromise, reject) => {
      worker.once('message', (m: Uint8Array) => {
        resolvePromise([Buffer.from(m.buffer, m.byteOffset, m.byteLength)]);
        void worker.terminate();
      });
      worker.once('error', reject);
    });
    return {
      push: (piece, final) => {
        // The caller reuses its buffer: send a copy, and hand its memory over rather than clone it.
        const copy = new Uint8Array(piece);
        worker.postMessage({ piece: copy, final }, [copy.buffer as ArrayBuffer]);
      },
      result: () => done,
      abort: () => void worker.terminate(),
    };
  };
}
