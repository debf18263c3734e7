/**
 * A built-in worker thread whose only skill, test.hog, allocates until it cannot: what the run
 * engine's memory cap on built-in threads (resourceLimits) must stop.
 */
import { parentPort } from 'node:worker_threads';
import { serveBuiltinJob, type BuiltinJob, type BuiltinSkill } from '../../src/core/run/index.js';

const hog: BuiltinSkill = {
  id: 'test.hog',
  run: async () => {
    const kept: unknown[] = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => ({ i, s: `item ${i}` })));
  },
};

const port = parentPort;
if (port !== null) port.once('message', (job: BuiltinJob) => void serveBuiltinJob(job, async (id) => (id === hog.id ? hog : undefined), port));
