import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fixture } from '../../helpers/paths.js';
import { codes, found, INVALID, validate, VALID } from './helpers.js';

/**
 * The personal-trainer bundles of the protocol's source project, restated: valid ones, and broken
 * variants that reproduce its documented inconsistencies. Each broken variant names what it
 * proves; the table lists every code it must raise (errors and warnings).
 */
const BROKEN: Record<string, { codes: string[]; has?: string[] }> = {
  'workouts-tool-missing-args-schema': { codes: ['SCHEMA_REQUIRED'], has: ['SCHEMA_REQUIRED /tools/3/args_schema'] },
  'weights-ui-ref-missing': { codes: ['UI_SCHEMA_UNKNOWN'], has: ['UI_SCHEMA_UNKNOWN /tools/2/ui_schemas/1'] },
  'workouts-tool-ref-dangling': { codes: ['SKILL_DOC_TOOL_UNKNOWN', 'SKILL_DOC_TOOL_UNLISTED'], has: ['SKILL_DOC_TOOL_UNLISTED /tools/4/name'] },
  'weights-policy-kind-delete': { codes: ['SCHEMA_ENUM'], has: ['SCHEMA_ENUM /tools/3/policy/kind'] },
  'weights-text-node-uses-text': {
    codes: ['UI_PROPERTY_INVALID'],
    has: [
      'UI_PROPERTY_INVALID /ui_schemas/0/definition/tree/children/0/content',
      'UI_PROPERTY_INVALID /ui_schemas/0/definition/tree/children/0/text',
      'UI_PROPERTY_INVALID /ui_schemas/0/definition/tree/title',
    ],
  },
  'workouts-panel-type-unknown': { codes: ['UI_COMPONENT_UNKNOWN'], has: ['UI_COMPONENT_UNKNOWN /ui_schemas/0/definition/tree/children/0/type'] },
  'weights-title-instead-of-name': { codes: ['SCHEMA_REQUIRED', 'SCHEMA_UNKNOWN_FIELD'], has: ['SCHEMA_REQUIRED /name', 'SCHEMA_UNKNOWN_FIELD /title'] },
  'weights-front-matter-disagrees': { codes: ['CAPABILITY_ID_MISMATCH', 'CAPABILITY_TRIGGERS_MISMATCH', 'SKILL_DOC_FRONT_MATTER'] },
  'meals-no-triggers': { codes: ['SCHEMA_CONSTRAINT'], has: ['SCHEMA_CONSTRAINT /intent_triggers'] },
  'meals-a2ui-google-broken': {
    codes: ['UI_COMPONENT_DUPLICATE_ID', 'UI_FUNCTION_UNKNOWN', 'UI_MESSAGE_INVALID', 'UI_PROPERTY_INVALID', 'UI_REFERENCE_MISSING', 'UI_ROOT_MISSING'],
    has: [
      'UI_ROOT_MISSING /ui_schemas/0/definition/1/updateComponents',
      'UI_PROPERTY_INVALID /ui_schemas/0/definition/1/updateComponents/components/8/child',
      'UI_FUNCTION_UNKNOWN /ui_schemas/0/definition/1/updateComponents/components/8/checks/0/call',
      'UI_MESSAGE_INVALID /ui_schemas/0/definition/2',
    ],
  },
  'weights-ui-schemas-as-record': { codes: ['SCHEMA_TYPE'], has: ['SCHEMA_TYPE /ui_schemas'] },
  'workouts-fence-unclosed': { codes: ['SKILL_DOC_FENCE_UNCLOSED', 'SKILL_DOC_SECTION_MISSING'] },
  'meals-section-duplicate': { codes: ['SKILL_DOC_SECTION_DUPLICATE'] },
  'weights-file-missing': { codes: ['CAPABILITY_FILE_MISSING'] },
  // Valid alone: its tool collides only with a registry that holds weights (test/core/registry/publish.test.ts).
  'meals-tool-collides': { codes: [] },
};

describe('personal-trainer fixtures', () => {
  for (const name of ['weights', 'workouts', 'meals']) {
    it(`valid/${name} has no finding at all`, async () => {
      const v = await validate(VALID(name));
      assert.deepEqual(found(v.diagnostics), []);
      assert.equal(v.valid, true);
      assert.equal(v.capability_id, name);
    });
  }

  it('every broken variant is in the table', () => {
    assert.deepEqual(readdirSync(fixture('registry', 'capabilities', 'invalid')).sort(), Object.keys(BROKEN).sort());
  });

  for (const [name, want] of Object.entries(BROKEN)) {
    it(`invalid/${name}: ${want.codes.join(', ') || 'no finding alone'}`, async () => {
      const v = await validate(INVALID(name));
      assert.deepEqual(codes(v.diagnostics), [...want.codes].sort(), found(v.diagnostics).join('\n'));
      for (const h of want.has ?? []) assert.ok(found(v.diagnostics).includes(h), `${h} not in\n${found(v.diagnostics).join('\n')}`);
      if (want.codes.length > 0 && name !== 'meals-section-duplicate') assert.equal(v.valid, false);
    });
  }

  it('findings in JSON files carry the line and column of the pointer', async () => {
    const v = await validate(INVALID('weights-policy-kind-delete'));
    const d = v.diagnostics.find((x) => x.code === 'SCHEMA_ENUM');
    assert.equal(d?.file, 'bundle/tools.json');
    assert.ok(d?.line !== undefined && d.line > 1 && d.column !== undefined);
  });

  it('findings in skill.md carry the line of the reference', async () => {
    const v = await validate(INVALID('workouts-tool-ref-dangling'));
    const d = v.diagnostics.find((x) => x.code === 'SKILL_DOC_TOOL_UNKNOWN');
    assert.equal(d?.file, 'bundle/skill.md');
    assert.equal(d?.line, 33);
  });
});
