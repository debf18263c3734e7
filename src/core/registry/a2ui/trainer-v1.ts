/**
 * Dialect `a2ui.v1`: the nested view tree the protocol's source project uses for its forms and
 * editors (a view `{kind: "a2ui.v1", view_id, title?, tree}` whose nodes carry a lowercase
 * `type`). Its own implementation never checked the tree below the view; this checks every node
 * with the property tables below, plus the references it implies: ids of forms, tables and
 * buttons are unique, and so are field names within a form and column keys within a table.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import {
  arrayOf,
  checkProps,
  child,
  invalid,
  isObject,
  literal,
  nonEmptyString,
  objectOf,
  oneOf,
  typeName,
  type PropCheck,
  type PropTable,
} from './props.js';
import { pushAll } from '../../findings.js';

export const TRAINER_KIND = 'a2ui.v1';

const FIELD_COMMON: PropTable = {
  type: { required: true, check: () => [] },
  name: { required: true, check: nonEmptyString },
  label: { required: true, check: literal('string') },
  required: { check: literal('boolean') },
  placeholder: { check: literal('string') },
};
const SELECT_OPTION = objectOf({ value: { required: true, check: literal('string') }, label: { required: true, check: literal('string') } }, 'option');

/** Fields appear only in a form's `fields`. */
const FIELDS: Readonly<Record<string, PropTable>> = {
  'field.text': FIELD_COMMON,
  'field.number': { ...FIELD_COMMON, min: { check: literal('number') }, max: { check: literal('number') }, step: { check: literal('number') } },
  'field.datetime': FIELD_COMMON,
  'field.select': { ...FIELD_COMMON, options: { required: true, check: arrayOf(SELECT_OPTION, 1) } },
};

const COLUMN = objectOf(
  {
    key: { required: true, check: nonEmptyString },
    label: { required: true, check: literal('string') },
    type: { required: true, check: oneOf(['text', 'number', 'datetime', 'select']) },
    required: { check: literal('boolean') },
    options: { check: arrayOf(SELECT_OPTION, 1) },
  },
  'column',
);
const TABLE_ACTION = objectOf(
  { kind: { required: true, check: oneOf(['table.save', 'table.add_row', 'table.delete_row']) }, label: { required: true, check: literal('string') } },
  'table action',
);

interface Walk {
  readonly out: Diagnostic[];
  readonly ids: Map<string, string>;
  tables?: Readonly<Record<string, PropTable>>;
}

function uniqueNames(list: unknown, key: string, pointer: string, what: string): Diagnostic[] {
  if (!Array.isArray(list)) return [];
  const seen = new Map<string, number>();
  const out: Diagnostic[] = [];
  list.forEach((item, i) => {
    const name = isObject(item) ? item[key] : undefined;
    if (typeof name !== 'string') return;
    const prev = seen.get(name);
    if (prev !== undefined) out.push(diag('UI_FIELD_DUPLICATE', `${what} ${key} \`${name}\` is used twice (also item ${prev})`, { pointer: child(child(pointer, i), key) }));
    else seen.set(name, i);
  });
  return out;
}

function nodes(w: Walk): PropCheck {
  return (v, p) => {
    if (!Array.isArray(v)) return [invalid(p, `must be an array of nodes, not ${typeName(v)}`)];
    v.forEach((n, i) => node(w, n, child(p, i)));
    return [];
  };
}

function fields(v: unknown, p: string): Diagnostic[] {
  if (!Array.isArray(v)) return [invalid(p, `must be an array of fields, not ${typeName(v)}`)];
  if (v.length === 0) return [invalid(p, 'a form needs at least one field')];
  const out: Diagnostic[] = [];
  v.forEach((f, i) => {
    const at = child(p, i);
    if (!isObject(f)) return void out.push(invalid(at, `a field must be an object, not ${typeName(f)}`));
    const table = typeof f.type === 'string' ? FIELDS[f.type] : undefined;
    if (table === undefined) {
      const guess = typeof f.type === 'string' ? closest(f.type, Object.keys(FIELDS)) : undefined;
      return void out.push(
        diag('UI_COMPONENT_UNKNOWN', `field type ${JSON.stringify(f.type)} is not one of ${Object.keys(FIELDS).join(', ')}`, {
          pointer: child(at, 'type'),
          ...(guess !== undefined ? { hint: `did you mean ${guess}?` } : {}),
        }),
      );
    }
    pushAll(out, checkProps(f, table, at, f.type as string));
  });
  return [...out, ...uniqueNames(v, 'name', p, 'field')];
}

function nodeTables(w: Walk): Readonly<Record<string, PropTable>> {
  const id: PropTable = { id: { required: true, check: nonEmptyString } };
  return {
    screen: { title: { required: true, check: literal('string') }, children: { required: true, check: nodes(w) } },
    section: { title: { check: literal('string') }, children: { required: true, check: nodes(w) } },
    text: { content: { required: true, check: literal('string') }, variant: { check: literal('string') } },
    form: {
      ...id,
      title: { check: literal('string') },
      fields: { required: true, check: fields },
      submit: { required: true, check: objectOf({ label: { required: true, check: literal('string') } }, 'submit') },
    },
    table_editor: {
      ...id,
      title: { check: literal('string') },
      columns: { required: true, check: (v, p) => [...arrayOf(COLUMN, 1)(v, p), ...uniqueNames(v, 'key', p, 'column')] },
      rows: { check: arrayOf((r, p) => (isObject(r) ? [] : [invalid(p, `a row must be an object, not ${typeName(r)}`)])) },
      actions: { check: arrayOf(TABLE_ACTION) },
    },
    button: { ...id, label: { required: true, check: literal('string') }, action: { required: true, check: nonEmptyString }, variant: { check: literal('string') } },
  };
}

function node(w: Walk, n: unknown, p: string): void {
  if (!isObject(n)) return void w.out.push(invalid(p, `a node must be an object, not ${typeName(n)}`));
  const tables = (w.tables ??= nodeTables(w));
  const type = n.type;
  const table = typeof type === 'string' ? tables[type] : undefined;
  if (table === undefined) {
    const inForm = typeof type === 'string' && type in FIELDS;
    const guess = typeof type === 'string' ? closest(type, Object.keys(tables)) : undefined;
    w.out.push(
      diag('UI_COMPONENT_UNKNOWN', `node type ${JSON.stringify(type)} is not part of ${TRAINER_KIND}${inForm ? ' outside a form' : ''}`, {
        pointer: child(p, 'type'),
        hint: inForm ? 'put fields in a form\'s fields list' : guess !== undefined ? `did you mean ${guess}?` : `node types: ${Object.keys(tables).join(', ')}`,
      }),
    );
    return;
  }
  pushAll(w.out, checkProps(n, table, p, `${type} node`, ['type']));
  if (typeof n.id === 'string') {
    const prev = w.ids.get(n.id);
    if (prev !== undefined) w.out.push(diag('UI_COMPONENT_DUPLICATE_ID', `id \`${n.id}\` is used twice (also at ${prev})`, { pointer: child(p, 'id') }));
    else w.ids.set(n.id, p);
  }
}

/** Checks an `a2ui.v1` view; `pointer` is where the definition sits in ui_schemas.json. */
export function checkTrainerView(definition: unknown, pointer: string): Diagnostic[] {
  if (!isObject(definition)) return [diag('UI_MESSAGE_INVALID', `an ${TRAINER_KIND} definition is a view object, not ${typeName(definition)}`, { pointer })];
  const out: Diagnostic[] = [];
  for (const key of ['kind', 'view_id', 'tree']) {
    if (!(key in definition)) out.push(diag('UI_MESSAGE_INVALID', `the view lacks \`${key}\``, { pointer: child(pointer, key) }));
  }
  if ('kind' in definition && definition.kind !== TRAINER_KIND) {
    out.push(diag('UI_MESSAGE_INVALID', `kind is ${JSON.stringify(definition.kind)}, not "${TRAINER_KIND}"`, { pointer: child(pointer, 'kind') }));
  }
  const w: Walk = { out: [], ids: new Map() };
  const view: PropTable = {
    kind: { check: () => [] },
    view_id: { check: nonEmptyString },
    title: { check: literal('string') },
    tree: { check: (v, p) => (node(w, v, p), []) },
  };
  return [...out, ...checkProps(definition, view, pointer, 'view'), ...w.out];
}
