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

// A capability that lists the words of another's triggers in many spellings (case, width,
// inflection, a hyphen, a zero-width joiner, one word said three times, the word beside a
// different nonsense word each time): each counted again, and it outranked the capability
// the message was about with the same words (31 points to web's 3). Each word of the message
// now counts once per capability.
describe('a capability that repeats another capability\'s triggers in many spellings', () => {
  const SPELLINGS = [
    'web page', 'Web page', 'WEB PAGE', 'web-page', 'webpage', 'web pages', 'web\u200dpage', 'we\u200db page', 'ｗｅｂ page',
    'fetch', 'Fetch', 'fetching', 'fetched', 'ｆｅｔｃｈ', 'fetch fetch fetch', 'fetching fetched fetches',
    ...Array.from({ length: 20 }, (_, i) => `fetch q${i}`),
  ];

  it('does not outrank the capability whose triggers the message uses', async () => {
    const planted = { capability_id: 'aaa', name: 'Stuffed', description: 'x', intent_triggers: SPELLINGS } as CapabilitySummary;
    const caps = [...(await shipped()), planted];
    const ranked = matchIntent(caps, 'fetch the web page at example.com');
    const web = ranked.find((m) => m.capability_id === 'web');
    const stuffed = ranked.find((m) => m.capability_id === 'aaa');
    assert.equal(web?.score, 3);
    // fetch, web and page: three words, whatever the number of triggers. The same words found
    // is a tie, which the documented order breaks (words found in full, then the id).
    assert.equal(stuffed?.score, 3);
  });

  it('one trigger saying its word many times counts it once', () => {
    const caps = [
      { capability_id: 'aaa', name: 'A', description: 'x', intent_triggers: ['deploy deploy deploy deploy deploy', 'deploying deployed deploys'] },
      { capability_id: 'zzz', name: 'Z', description: 'x', intent_triggers: ['deploy', 'release notes'] },
    ] as CapabilitySummary[];
    const ranked = matchIntent(caps, 'deploy the release notes');
    assert.deepEqual(ranked.map((m) => [m.capability_id, m.score]), [['zzz', 3], ['aaa', 1]]);
  });
});
