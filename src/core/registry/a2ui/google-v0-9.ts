/**
 * Dialect `a2ui.google.v0.9`: a definition is the list of server-to-client messages that draw the
 * UI (createSurface, updateComponents, updateDataModel, deleteSurface), each `{version: "v0.9"}`
 * plus exactly one message. Checked as Google's own validator checks them: the envelope, every
 * component against the basic catalog, unique ids per message, a `root` per surface, every
 * component reference resolving, no reference cycle, function names from the catalog. Action
 * events are also matched against the capability's tools.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { BASIC_CATALOG_ID, basicCatalog } from './google-catalog.js';
import type { Refs } from './google-values.js';
import { checkProps, child, invalid, isObject, typeName } from './props.js';
import { pushAll } from '../../findings.js';

export const GOOGLE_VERSION = 'v0.9';
const MESSAGE_TYPES = ['createSurface', 'updateComponents', 'updateDataModel', 'deleteSurface'] as const;
const FIELDS: Readonly<Record<(typeof MESSAGE_TYPES)[number], readonly string[]>> = {
  createSurface: ['surfaceId', 'catalogId', 'theme', 'sendDataModel'],
  updateComponents: ['surfaceId', 'components'],
  updateDataModel: ['surfaceId', 'path', 'value'],
  deleteSurface: ['surfaceId'],
};

interface Surface {
  readonly created: string;
  /** Component id → pointer of its latest definition. */
  readonly components: Map<string, string>;
  /** Component id → the ids it references, with pointers. */
  readonly edges: Map<string, { id: string; pointer: string }[]>;
  firstUpdate?: string;
}

function bad(pointer: string, message: string): Diagnostic {
  return diag('UI_MESSAGE_INVALID', message, { pointer });
}

function checkComponents(list: unknown, at: string, surface: Surface, out: Diagnostic[], events: Refs['events']): void {
  if (!Array.isArray(list) || list.length === 0) return void out.push(bad(at, 'components must be a non-empty array'));
  const inMessage = new Map<string, string>();
  list.forEach((c, i) => {
    const p = child(at, i);
    if (!isObject(c)) return void out.push(invalid(p, `a component must be an object, not ${typeName(c)}`));
    const refs: Refs = { components: [], events, diagnostics: out };
    const catalog = basicCatalog(refs);
    const type = c.component;
    const table = typeof type === 'string' ? catalog[type] : undefined;
    if (table === undefined) {
      const guess = typeof type === 'string' ? closest(type, Object.keys(catalog)) : undefined;
      out.push(
        diag('UI_COMPONENT_UNKNOWN', `component ${JSON.stringify(type)} is not in the basic catalog`, {
          pointer: child(p, 'component'),
          hint: guess !== undefined ? `did you mean ${guess}?` : `components: ${Object.keys(catalog).join(', ')}`,
        }),
      );
    } else {
      pushAll(out, checkProps(c, table, p, `${String(type)} component`, ['component']));
    }
    if (typeof c.id !== 'string' || c.id === '') return;
    const prev = inMessage.get(c.id);
    if (prev !== undefined) out.push(diag('UI_COMPONENT_DUPLICATE_ID', `component id \`${c.id}\` is used twice in one message (also at ${prev})`, { pointer: child(p, 'id') }));
    inMessage.set(c.id, p);
    surface.components.set(c.id, p);
    surface.edges.set(c.id, refs.components);
  });
}

/** Reports every reference cycle once, at the reference that closes it. */
function cycles(surface: Surface, out: Diagnostic[]): void {
  const state = new Map<string, 1 | 2>();
  for (const start of [...surface.components.keys()].sort()) {
    if (state.has(start)) continue;
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const edges = surface.edges.get(top.id) ?? [];
      const e = edges[top.next++];
      if (e === undefined) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      if (!surface.components.has(e.id)) continue;
      const s = state.get(e.id);
      if (s === 1) out.push(diag('UI_REFERENCE_CYCLE', `\`${top.id}\` references \`${e.id}\`, which contains \`${top.id}\``, { pointer: e.pointer }));
      else if (s === undefined) {
        state.set(e.id, 1);
        stack.push({ id: e.id, next: 0 });
      }
    }
  }
}

function finishSurface(id: string, surface: Surface, out: Diagnostic[]): void {
  if (surface.firstUpdate === undefined) return;
  if (!surface.components.has('root')) {
    out.push(diag('UI_ROOT_MISSING', `surface \`${id}\` has no component with id root`, { pointer: surface.firstUpdate, hint: 'the component tree starts at the component whose id is root' }));
  }
  for (const [from, edges] of surface.edges) {
    for (const e of edges) {
      if (!surface.components.has(e.id)) {
        const guess = closest(e.id, surface.components.keys());
        out.push(
          diag('UI_REFERENCE_MISSING', `\`${from}\` references component \`${e.id}\`, which surface \`${id}\` does not define`, {
            pointer: e.pointer,
            ...(guess !== undefined ? { hint: `did you mean \`${guess}\`?` } : {}),
          }),
        );
      }
    }
  }
  cycles(surface, out);
}

function checkTheme(theme: unknown, at: string, out: Diagnostic[]): void {
  if (!isObject(theme)) return void out.push(invalid(at, 'theme must be an object'));
  if ('primaryColor' in theme && !(typeof theme.primaryColor === 'string' && /^#[0-9a-fA-F]{6}$/.test(theme.primaryColor))) {
    out.push(invalid(child(at, 'primaryColor'), 'primaryColor must be a hex colour #RRGGBB'));
  }
}

/**
 * Checks a v0.9 definition; `pointer` is where it sits in ui_schemas.json, `tools` the names an
 * action event may dispatch to (the capability's tools).
 */
export function checkGoogleMessages(definition: unknown, pointer: string, tools: ReadonlySet<string>): Diagnostic[] {
  if (!Array.isArray(definition) || definition.length === 0) {
    return [bad(pointer, `an a2ui.google.v0.9 definition is a non-empty array of messages, not ${Array.isArray(definition) ? 'an empty array' : typeName(definition)}`)];
  }
  const out: Diagnostic[] = [];
  const events: Refs['events'] = [];
  const surfaces = new Map<string, Surface>();
  const done: [string, Surface][] = [];
  definition.forEach((m, i) => {
    const p = child(pointer, i);
    if (!isObject(m)) return void out.push(bad(p, `a message must be an object, not ${typeName(m)}`));
    if (m.version !== GOOGLE_VERSION) out.push(bad(child(p, 'version'), `version must be "${GOOGLE_VERSION}", not ${JSON.stringify(m.version)}`));
    const kinds = Object.keys(m).filter((k) => k !== 'version');
    const type = kinds.find((k): k is (typeof MESSAGE_TYPES)[number] => (MESSAGE_TYPES as readonly string[]).includes(k));
    if (kinds.length !== 1 || type === undefined) {
      return void out.push(bad(p, `a message has exactly one of ${MESSAGE_TYPES.join(', ')}; this one has ${kinds.length === 0 ? 'none' : kinds.join(', ')}`));
    }
    const body = m[type];
    const at = child(p, type);
    if (!isObject(body)) return void out.push(bad(at, `${type} must be an object`));
    for (const k of Object.keys(body)) if (!FIELDS[type].includes(k)) out.push(bad(child(at, k), `${type} has no field \`${k}\``));
    const sid = body.surfaceId;
    if (typeof sid !== 'string' || sid === '') return void out.push(bad(child(at, 'surfaceId'), `${type} needs a surfaceId`));
    if (type === 'createSurface') {
      if (surfaces.has(sid)) out.push(bad(child(at, 'surfaceId'), `surface \`${sid}\` is created twice`));
      if (typeof body.catalogId !== 'string') out.push(bad(child(at, 'catalogId'), 'createSurface needs a catalogId'));
      else if (body.catalogId !== BASIC_CATALOG_ID) {
        out.push(diag('UI_CATALOG_UNSUPPORTED', `catalog ${JSON.stringify(body.catalogId)} is not one skillctl can check`, { pointer: child(at, 'catalogId'), hint: `use the basic catalog, ${BASIC_CATALOG_ID}` }));
      }
      if ('theme' in body) checkTheme(body.theme, child(at, 'theme'), out);
      if ('sendDataModel' in body && typeof body.sendDataModel !== 'boolean') out.push(invalid(child(at, 'sendDataModel'), 'sendDataModel must be a boolean'));
      surfaces.set(sid, { created: p, components: new Map(), edges: new Map() });
      return;
    }
    const surface = surfaces.get(sid);
    if (surface === undefined) {
      return void out.push(diag('UI_SURFACE_UNKNOWN', `surface \`${sid}\` is not created by an earlier createSurface`, { pointer: child(at, 'surfaceId') }));
    }
    if (type === 'updateComponents') {
      surface.firstUpdate ??= at;
      checkComponents(body.components, child(at, 'components'), surface, out, events);
    } else if (type === 'updateDataModel') {
      if ('path' in body && (typeof body.path !== 'string' || !(body.path === '' || body.path.startsWith('/')))) {
        out.push(diag('UI_BINDING_PATH_INVALID', `${JSON.stringify(body.path)} is not an absolute JSON Pointer`, { pointer: child(at, 'path') }));
      }
    } else {
      done.push([sid, surface]);
      surfaces.delete(sid);
    }
  });
  for (const [id, s] of [...done, ...surfaces]) finishSurface(id, s, out);
  for (const e of events) {
    if (!tools.has(e.name)) {
      out.push(diag('UI_ACTION_UNBOUND', `action event \`${e.name}\` names no tool of this capability`, { pointer: e.pointer, hint: 'name the tool the event should call' }));
    }
  }
  return out;
}
