// The worker pool (src/entry/pool.ts) hands an error back across threads: a SkillctlError must
// keep its code and hint, so that an item that cannot be read ends the command with the same code
// and exit status whichever thread took it (issue found: a worker's INPUT_UNREADABLE came back as
// a plain Error, reported as INTERNAL with exit 1, where this thread reported exit 2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSkillctlError, SkillctlError } from '../../src/core/errors.js';
import { errorOf, replyOf } from '../../src/entry/pool.js';

describe('errors across the pool’s threads', () => {
  it('a SkillctlError keeps its code, message and hint through a structured clone', () => {
    const sent = structuredClone(replyOf(new SkillctlError('INPUT_UNREADABLE', 'cannot read archives/x.tgz: EACCES', { hint: 'check its permissions' })));
    assert.equal(sent.ok, false);
    const back = errorOf(sent as { error: string });
    assert.ok(isSkillctlError(back));
    assert.deepEqual([back.code, back.message, back.hint], ['INPUT_UNREADABLE', 'cannot read archives/x.tgz: EACCES', 'check its permissions']);
  });

  it('anything else comes back as a plain Error with its message (the CLI reports it as a bug)', () => {
    for (const thrown of [new TypeError('x is undefined'), 'a string']) {
      const back = errorOf(structuredClone(replyOf(thrown)) as { error: string });
      assert.equal(isSkillctlError(back), false);
      assert.equal(back.message, thrown instanceof Error ? thrown.message : thrown);
    }
  });
});
