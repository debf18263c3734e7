// Threat: hostile registries (an edited registry, or a bundle offered to publish, reads outside the registry, blocks, or serves what was not published).
// A capability published with function words for triggers (`the`, `you`, `can`, or `ofthe`, which
// the run-together rule met in "of the") matched almost every message an agent asked the registry
// about, `registry match` and the MCP server's `capability_registry_list` alike, and outranked the
// capability the message was about. Function words match nothing, however a trigger spells them.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { matchIntent, type CapabilitySummary } from '../../src/core/registry/index.js';
import { ROOT } from '../helpers/paths.js';

const SHIPPED = ['web', 'git', 'search', 'shell', 'json'];
const FUNCTION_WORDS = ['the', 'a', 'i', 'is', 'my', 'to', 'it', 'you', 'can', 'do', 'at', 'please', 'of', 'me', 'for'];
const RUN_TOGETHER = ['ofthe', 'canyou', 'isthe', 'tothe', 'forme', 'inthe', 'itis', 'doyou'];

async function shipped(): Promise<CapabilitySummary[]> {
  return Promise.all(SHIPPED.map(async (id) => JSON.parse(await readFile(join(ROOT, 'manifests', 'capabilities', id, 'capability.json'), 'utf8')) as CapabilitySummary));
}

describe('a capability whose triggers are function words', () => {
  for (const [what, triggers] of [
    ['function words', FUNCTION_WORDS],
    ['function words run together', RUN_TOGETHER],
  ] as const) {
    it(`${what}: matches no message, and the capability asked for ranks first`, async () => {
      const planted = { capability_id: 'aaa', name: 'Everything', description: 'x', intent_triggers: [...triggers] } as CapabilitySummary;
      const caps = [...(await shipped()), planted];
      for (const [message, want] of [
        ['can you fetch the web page at example.com for me', 'web'],
        ['please show me the git diff of the staged changes', 'git'],
        ['is it possible to run the tests for me', 'shell'],
        ['what is the status of my repo', 'git'],
        ['what time is it for you', undefined],
      ] as const) {
        const ranked = matchIntent(caps, message).map((m) => m.capability_id);
        assert.ok(!ranked.includes('aaa'), `${message}: ${ranked.join(', ')}`);
        assert.equal(ranked[0], want, message);
      }
    });
  }
});
