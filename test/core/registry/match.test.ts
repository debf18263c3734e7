import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchIntent, stem, words, type CapabilitySummary } from '../../../src/core/registry/index.js';

/** The three capabilities of seed 004's registry example. */
const SEED: CapabilitySummary[] = [
  { capability_id: 'weights', name: 'Weight Tracking', description: 'Log and track body weight over time', intent_triggers: ['weigh-in', 'bodyweight', 'weight log'] },
  { capability_id: 'workouts', name: 'Workout Planning & Logging', description: 'Plan, execute, and track resistance training', intent_triggers: ['workout', 'lift', 'squat', 'training session'] },
  { capability_id: 'meals', name: 'Meal Tracking', description: 'Log meals and track nutrition', intent_triggers: ['meal', 'food', 'calories', 'macros'] },
];

const ids = (text: string, caps = SEED): string[] => matchIntent(caps, text).map((m) => m.capability_id);

describe('Porter stems', () => {
  const cases: [string, string][] = [
    ['weighed', 'weigh'], ['weighing', 'weigh'], ['weigh', 'weigh'], ['weight', 'weight'], ['workouts', 'workout'],
    ['lifting', 'lift'], ['squatting', 'squat'], ['calories', 'calori'], ['calorie', 'calori'], ['meals', 'meal'],
    ['trained', 'train'], ['training', 'train'], ['caresses', 'caress'], ['ponies', 'poni'], ['agreed', 'agre'],
    ['hopping', 'hop'], ['filing', 'file'], ['relational', 'relat'], ['generalization', 'gener'], ['adjustment', 'adjust'],
  ];
  for (const [word, want] of cases) it(`${word} → ${want}`, () => assert.equal(stem(word), want));
  it('leaves short, non-ASCII and mixed words alone', () => {
    assert.equal(stem('is'), 'is');
    assert.equal(stem('größe'), 'größe');
    assert.equal(stem('v2'), 'v2');
  });
});

describe('intent matching', () => {
  it('seed example: "I just weighed 187.6 lbs" matches weigh-in → weights', () => {
    const [m, ...rest] = matchIntent(SEED, 'I just weighed 187.6 lbs');
    assert.equal(m?.capability_id, 'weights');
    assert.deepEqual(m?.matched_triggers.map((t) => [t.trigger, t.full, t.words]), [['weigh-in', true, ['weighed']]]);
    assert.deepEqual(rest, []);
  });

  it('seed example: "Log my workout and weigh-in" loads both', () => {
    assert.deepEqual(ids('Log my workout and weigh-in').sort(), ['weights', 'workouts']);
  });

  it('seed example: "I want to log today\'s workout" ranks workouts first', () => {
    assert.equal(ids("I want to log today's workout")[0], 'workouts');
  });

  it('plural and inflected forms meet their triggers', () => {
    assert.deepEqual(ids('How many calories in my meals?'), ['meals']);
    assert.deepEqual(ids('I was lifting and squatting today'), ['workouts']);
  });

  it('a one-word trigger matches the same letters over adjacent words, and the other way round', () => {
    assert.deepEqual(ids('my body weight is up'), ['weights']);
    const m = matchIntent([{ ...SEED[0], intent_triggers: ['weigh in'] } as CapabilitySummary], 'daily weighin done');
    assert.equal(m[0]?.matched_triggers[0]?.full, true);
  });

  it('a multi-word trigger found in part scores half a point per word', () => {
    const [m] = matchIntent(SEED, 'my weight this week');
    assert.deepEqual(m?.matched_triggers.map((t) => [t.trigger, t.full, t.score]), [['weight log', false, 0.5]]);
  });

  it('function words never match on their own', () => {
    assert.deepEqual(ids('what is it in the'), []);
    const only = (triggers: string[]): string[] => ids('what is the status of it', [{ ...SEED[0], intent_triggers: triggers } as CapabilitySummary]);
    assert.deepEqual(only(['the', 'of', 'it is']), [], 'a trigger of function words');
    assert.deepEqual(only(['ofthe', 'itis', 'isthe']), [], 'function words run together');
    assert.equal(only(['status of']).length, 1, 'a trigger with a word of content still matches');
    assert.deepEqual(words('I am in'), [
      { text: 'i', stem: 'i', stop: true },
      { text: 'am', stem: 'am', stop: true },
      { text: 'in', stem: 'in', stop: true },
    ]);
  });

  it('ties break by fully matched triggers, then by capability_id in byte order, whatever the input order', () => {
    const a = { capability_id: 'b_cap', name: 'B', description: 'd', intent_triggers: ['report'] };
    const b = { capability_id: 'a_cap', name: 'A', description: 'd', intent_triggers: ['report'] };
    const c = { capability_id: 'c_cap', name: 'C', description: 'd', intent_triggers: ['weekly report', 'summary report'] };
    assert.deepEqual(ids('the report', [a, b, c]), ['a_cap', 'b_cap', 'c_cap']);
    assert.deepEqual(ids('the report', [c, b, a]), ['a_cap', 'b_cap', 'c_cap']);
    // c finds 'report' twice, in part (½: a word of the message counts once), a and b in full (1).
    assert.deepEqual(matchIntent([a, b, c], 'the report').map((m) => m.score), [1, 1, 0.5]);
  });

  it('is case- and Unicode-normalisation-insensitive', () => {
    assert.deepEqual(ids('ＷＯＲＫＯＵＴ done'), ['workouts']);
  });
});
