import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASIC_CATALOG_ID, checkUiDefinition, inferDialect } from '../../../src/core/registry/index.js';
import { found } from './helpers.js';

const TOOLS = new Set(['weight_entry_save_batch']);
const create = (surfaceId = 's', catalogId = BASIC_CATALOG_ID): Record<string, unknown> => ({ version: 'v0.9', createSurface: { surfaceId, catalogId } });
const update = (components: unknown[], surfaceId = 's'): Record<string, unknown> => ({ version: 'v0.9', updateComponents: { surfaceId, components } });
const google = (def: unknown): string[] => found(checkUiDefinition('a2ui.google.v0.9', def, '', TOOLS));
const trainer = (tree: unknown): string[] => found(checkUiDefinition('a2ui.v1', { kind: 'a2ui.v1', view_id: 'v', tree }, '', TOOLS));

describe('UI dialects', () => {
  it('infers the dialect from the definition, and says when it cannot', () => {
    assert.equal(inferDialect({ kind: 'a2ui.v1', view_id: 'v', tree: {} }), 'a2ui.v1');
    assert.equal(inferDialect([create()]), 'a2ui.google.v0.9');
    assert.deepEqual(found(checkUiDefinition(undefined, { type: 'form' }, '/d', TOOLS)), ['UI_DIALECT_UNKNOWN /d']);
  });

  describe('a2ui.v1', () => {
    it('accepts a screen with text, a form and a button', () => {
      const form = { type: 'form', id: 'f', fields: [{ type: 'field.number', name: 'w', label: 'W', min: 0 }], submit: { label: 'Save' } };
      assert.deepEqual(trainer({ type: 'screen', title: 'T', children: [{ type: 'text', content: 'x' }, form, { type: 'button', id: 'b', label: 'Go', action: 'go' }] }), []);
    });

    it('UI_MESSAGE_INVALID: a view without kind or tree', () => {
      assert.deepEqual(found(checkUiDefinition('a2ui.v1', { view_id: 'v' }, '', TOOLS)), ['UI_MESSAGE_INVALID /kind', 'UI_MESSAGE_INVALID /tree']);
      assert.deepEqual(found(checkUiDefinition('a2ui.v1', [], '', TOOLS)), ['UI_MESSAGE_INVALID']);
    });

    it('UI_COMPONENT_DUPLICATE_ID and UI_FIELD_DUPLICATE', () => {
      const field = { type: 'field.text', name: 'notes', label: 'Notes' };
      const tree = {
        type: 'section',
        children: [
          { type: 'form', id: 'x', fields: [field, field], submit: { label: 'S' } },
          { type: 'table_editor', id: 'x', columns: [{ key: 'a', label: 'A', type: 'text' }, { key: 'a', label: 'A2', type: 'number' }] },
        ],
      };
      assert.deepEqual(trainer(tree), [
        'UI_FIELD_DUPLICATE /tree/children/0/fields/1/name',
        'UI_FIELD_DUPLICATE /tree/children/1/columns/1/key',
        'UI_COMPONENT_DUPLICATE_ID /tree/children/1/id',
      ]);
    });

    it('UI_COMPONENT_UNKNOWN for a field outside a form and an unknown field type', () => {
      assert.deepEqual(trainer({ type: 'section', children: [{ type: 'field.text', name: 'a', label: 'A' }] }), ['UI_COMPONENT_UNKNOWN /tree/children/0/type']);
      const form = { type: 'form', id: 'f', fields: [{ type: 'field.color', name: 'c', label: 'C' }], submit: { label: 'S' } };
      assert.deepEqual(trainer(form), ['UI_COMPONENT_UNKNOWN /tree/fields/0/type']);
    });

    it('UI_PROPERTY_INVALID: a form without submit, a select without options, a wrong column type', () => {
      const form = { type: 'form', id: 'f', fields: [{ type: 'field.select', name: 's', label: 'S' }] };
      assert.deepEqual(trainer(form), ['UI_PROPERTY_INVALID /tree/submit', 'UI_PROPERTY_INVALID /tree/fields/0/options']);
      assert.deepEqual(trainer({ type: 'table_editor', id: 't', columns: [{ key: 'k', label: 'K', type: 'date' }] }), ['UI_PROPERTY_INVALID /tree/columns/0/type']);
    });
  });

  describe('a2ui.google.v0.9', () => {
    const text = (id: string): Record<string, unknown> => ({ id, component: 'Text', text: id });

    it('accepts a surface whose references resolve', () => {
      assert.deepEqual(google([create(), update([{ id: 'root', component: 'Row', children: ['a', 'b'] }, text('a'), text('b')])]), []);
    });

    it('UI_CATALOG_UNSUPPORTED for any catalog but the basic one', () => {
      assert.deepEqual(google([create('s', 'https://example.com/catalog.json')]), ['UI_CATALOG_UNSUPPORTED /0/createSurface/catalogId']);
    });

    it('UI_SURFACE_UNKNOWN: a message before its createSurface, or after deleteSurface', () => {
      const del = { version: 'v0.9', deleteSurface: { surfaceId: 's' } };
      assert.deepEqual(google([update([text('root')], 'other'), create(), del, update([text('root')])]), [
        'UI_SURFACE_UNKNOWN /0/updateComponents/surfaceId',
        'UI_SURFACE_UNKNOWN /3/updateComponents/surfaceId',
      ]);
    });

    it('UI_MESSAGE_INVALID: wrong version, no message, an unknown field', () => {
      assert.deepEqual(google([{ version: 'v0.8', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID, extra: 1 } }, { version: 'v0.9' }]), [
        'UI_MESSAGE_INVALID /0/version',
        'UI_MESSAGE_INVALID /0/createSurface/extra',
        'UI_MESSAGE_INVALID /1',
      ]);
      assert.deepEqual(google([]), ['UI_MESSAGE_INVALID']);
    });

    it('UI_REFERENCE_CYCLE, reported once where it closes', () => {
      const def = [create(), update([{ id: 'root', component: 'Card', child: 'a' }, { id: 'a', component: 'Card', child: 'b' }, { id: 'b', component: 'Column', children: ['a'] }])];
      assert.deepEqual(google(def), ['UI_REFERENCE_CYCLE /1/updateComponents/components/2/children/0']);
    });

    it('references resolve across updateComponents messages of the same surface', () => {
      assert.deepEqual(google([create(), update([{ id: 'root', component: 'Card', child: 'later' }]), update([text('later')])]), []);
    });

    it('UI_BINDING_PATH_INVALID and UI_ACTION_UNBOUND are warnings', () => {
      const button = { id: 'root', component: 'Button', child: 'l', action: { event: { name: 'save_it', context: { v: { path: '/a~2b' } } } } };
      const def = [create(), update([button, text('l')]), { version: 'v0.9', updateDataModel: { surfaceId: 's', path: 'relative' } }];
      assert.deepEqual(google(def), [
        'UI_BINDING_PATH_INVALID /1/updateComponents/components/0/action/event/context/v/path',
        'UI_BINDING_PATH_INVALID /2/updateDataModel/path',
        'UI_ACTION_UNBOUND /1/updateComponents/components/0/action/event/name',
      ]);
    });

    it('UI_PROPERTY_INVALID: enum, dynamic types, function arguments and return types', () => {
      const comps = [
        { id: 'root', component: 'Column', children: ['t', 'c', 'f'], justify: 'middle' },
        { id: 't', component: 'Text', text: 42 },
        { id: 'c', component: 'CheckBox', label: 'L', value: { call: 'formatString', args: { value: 'x' } } },
        { id: 'f', component: 'TextField', label: 'L', checks: [{ call: 'length', args: { value: { path: '/x' } }, message: 'm' }] },
      ];
      assert.deepEqual(google([create(), update(comps)]), [
        'UI_PROPERTY_INVALID /1/updateComponents/components/0/justify',
        'UI_PROPERTY_INVALID /1/updateComponents/components/1/text',
        'UI_PROPERTY_INVALID /1/updateComponents/components/2/value',
        'UI_PROPERTY_INVALID /1/updateComponents/components/3/checks/0/args',
      ]);
    });

    it('UI_COMPONENT_UNKNOWN suggests the closest component', () => {
      const d = checkUiDefinition('a2ui.google.v0.9', [create(), update([{ id: 'root', component: 'Colum', children: [] }])], '', TOOLS);
      assert.deepEqual(found(d), ['UI_COMPONENT_UNKNOWN /1/updateComponents/components/0/component']);
      assert.match(d[0]?.hint ?? '', /Column/);
    });
  });
});
