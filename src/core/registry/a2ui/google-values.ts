/**
 * Google A2UI v0.9 value forms: literals, data bindings `{path}`, function calls
 * `{call, args, returnType?}` and logic expressions, as the v0.9 common types define them, plus
 * the basic catalog's client functions. Every checker records what the message-level checks need
 * afterwards: component references, action event names.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { child, invalid, isObject, typeName, type PropCheck } from './props.js';
import { pushAll } from '../../findings.js';

export type ReturnType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any' | 'void';

export interface Refs {
  /** Component ids referenced, with where. */
  readonly components: { readonly id: string; readonly pointer: string }[];
  readonly events: { readonly name: string; readonly pointer: string }[];
  readonly diagnostics: Diagnostic[];
}

type ArgKind = 'value' | 'string' | 'number' | 'boolean' | 'booleans' | 'integer' | 'literalNumber' | 'literalString' | 'uri';

interface FunctionSpec {
  readonly args: Readonly<Record<string, { readonly kind: ArgKind; readonly required?: boolean }>>;
  /** At least one of these args must be given. */
  readonly oneOf?: readonly string[];
  readonly returns: ReturnType;
}

const V = { kind: 'value', required: true } as const;
const S = { kind: 'string', required: true } as const;
const N = { kind: 'number', required: true } as const;
const B = { kind: 'boolean', required: true } as const;

/** The basic catalog's client functions (catalogs/basic/catalog.json, `functions`). */
export const BASIC_FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  required: { args: { value: V }, returns: 'boolean' },
  regex: { args: { value: S, pattern: { kind: 'literalString', required: true } }, returns: 'boolean' },
  length: { args: { value: S, min: { kind: 'integer' }, max: { kind: 'integer' } }, oneOf: ['min', 'max'], returns: 'boolean' },
  numeric: { args: { value: N, min: { kind: 'literalNumber' }, max: { kind: 'literalNumber' } }, oneOf: ['min', 'max'], returns: 'boolean' },
  email: { args: { value: S }, returns: 'boolean' },
  formatString: { args: { value: S }, returns: 'string' },
  formatNumber: { args: { value: N, decimals: { kind: 'number' }, grouping: { kind: 'boolean' } }, returns: 'string' },
  formatCurrency: { args: { value: N, currency: S, decimals: { kind: 'number' }, grouping: { kind: 'boolean' } }, returns: 'string' },
  formatDate: { args: { value: V, format: S }, returns: 'string' },
  pluralize: {
    args: { value: N, other: S, zero: { kind: 'string' }, one: { kind: 'string' }, two: { kind: 'string' }, few: { kind: 'string' }, many: { kind: 'string' } },
    returns: 'string',
  },
  openUrl: { args: { url: { kind: 'uri', required: true } }, returns: 'void' },
  and: { args: { values: { kind: 'booleans', required: true } }, returns: 'boolean' },
  or: { args: { values: { kind: 'booleans', required: true } }, returns: 'boolean' },
  not: { args: { value: B }, returns: 'boolean' },
  capitalize: { args: { value: S }, returns: 'string' },
};

const RETURN_TYPES: readonly ReturnType[] = ['string', 'number', 'boolean', 'array', 'object', 'any', 'void'];

/** A JSON Pointer as A2UI uses it: absolute, or relative inside a list template. */
function checkPath(refs: Refs, path: unknown, pointer: string): void {
  if (typeof path !== 'string') return void refs.diagnostics.push(invalid(pointer, `a binding path must be a string, not ${typeName(path)}`));
  if (/~(?![01])/.test(path) || /[\u0000-\u001f]/.test(path)) {
    refs.diagnostics.push(diag('UI_BINDING_PATH_INVALID', `${JSON.stringify(path)} is not a valid JSON Pointer (~ must be ~0 or ~1)`, { pointer }));
  }
}

function binding(refs: Refs, v: Record<string, unknown>, p: string): void {
  for (const k of Object.keys(v)) if (k !== 'path') refs.diagnostics.push(invalid(child(p, k), `a data binding has only \`path\`, not \`${k}\``));
  checkPath(refs, v.path, child(p, 'path'));
}

function argCheck(refs: Refs, kind: ArgKind): PropCheck {
  switch (kind) {
    case 'value':
      return dynamic(refs, 'any');
    case 'string':
      return dynamic(refs, 'string');
    case 'number':
      return dynamic(refs, 'number');
    case 'boolean':
      return dynamic(refs, 'boolean');
    case 'booleans':
      return (v, p) => (Array.isArray(v) && v.length >= 2 ? v.flatMap((x, i) => dynamic(refs, 'boolean')(x, child(p, i))) : [invalid(p, 'must be an array of at least 2 boolean values')]);
    case 'integer':
      return (v, p) => (Number.isInteger(v) && (v as number) >= 0 ? [] : [invalid(p, 'must be a non-negative integer')]);
    case 'literalNumber':
      return (v, p) => (typeof v === 'number' ? [] : [invalid(p, `must be a number, not ${typeName(v)}`)]);
    case 'literalString':
      return (v, p) => (typeof v === 'string' ? [] : [invalid(p, `must be a string, not ${typeName(v)}`)]);
    case 'uri':
      return (v, p) => (typeof v === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(v) ? [] : [invalid(p, 'must be an absolute URI')]);
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** `{call, args?, returnType?}`; `expected` is the type the place it stands in needs. */
export function functionCall(refs: Refs, v: Record<string, unknown>, p: string, expected: ReturnType, extraKeys: readonly string[] = []): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const k of Object.keys(v)) {
    if (!['call', 'args', 'returnType', ...extraKeys].includes(k)) out.push(invalid(child(p, k), `a function call has no property \`${k}\``));
  }
  const name = v.call;
  if (typeof name !== 'string') return [...out, invalid(child(p, 'call'), 'a function call names its function in `call`')];
  const spec = BASIC_FUNCTIONS[name];
  if (spec === undefined) {
    const guess = closest(name, Object.keys(BASIC_FUNCTIONS));
    return [
      ...out,
      diag('UI_FUNCTION_UNKNOWN', `function \`${name}\` is not in the basic catalog`, {
        pointer: child(p, 'call'),
        hint: guess !== undefined ? `did you mean \`${guess}\`?` : `functions: ${Object.keys(BASIC_FUNCTIONS).join(', ')}`,
      }),
    ];
  }
  if ('returnType' in v && (typeof v.returnType !== 'string' || !(RETURN_TYPES as readonly string[]).includes(v.returnType))) {
    out.push(invalid(child(p, 'returnType'), `returnType must be one of ${RETURN_TYPES.join(', ')}`));
  }
  if (expected !== 'any' && spec.returns !== expected) {
    out.push(invalid(p, `\`${name}\` returns ${spec.returns}, but a ${expected} is needed here`));
  }
  const args = v.args ?? {};
  if (!isObject(args)) return [...out, invalid(child(p, 'args'), 'args must be an object of named arguments')];
  for (const [arg, a] of Object.entries(spec.args)) {
    if (a.required === true && !(arg in args)) out.push(invalid(child(child(p, 'args'), arg), `\`${name}\` needs argument \`${arg}\``));
  }
  if (spec.oneOf !== undefined && !spec.oneOf.some((a) => a in args)) out.push(invalid(child(p, 'args'), `\`${name}\` needs one of ${spec.oneOf.join(', ')}`));
  for (const [arg, value] of Object.entries(args)) {
    const a = spec.args[arg];
    if (a === undefined) out.push(invalid(child(child(p, 'args'), arg), `\`${name}\` has no argument \`${arg}\``));
    else pushAll(out, argCheck(refs, a.kind)(value, child(child(p, 'args'), arg)));
  }
  return out;
}

const LOGIC_KEYS = ['and', 'or', 'not', 'true', 'false'];

function logic(refs: Refs, v: Record<string, unknown>, p: string): Diagnostic[] {
  const key = LOGIC_KEYS.find((k) => k in v);
  if (key === undefined) return [invalid(p, 'not a boolean expression')];
  if (Object.keys(v).length !== 1) return [invalid(p, `a \`${key}\` expression has no other properties`)];
  const x = v[key];
  if (key === 'true' || key === 'false') return x === (key === 'true') ? [] : [invalid(child(p, key), `must be ${key}`)];
  if (key === 'not') return dynamic(refs, 'boolean')(x, child(p, key));
  return Array.isArray(x) && x.length >= 1 ? x.flatMap((e, i) => dynamic(refs, 'boolean')(e, child(child(p, key), i))) : [invalid(child(p, key), 'must be a non-empty array')];
}

/** A Dynamic<type> property: a literal of the type, a binding, or a call returning the type. */
export function dynamic(refs: Refs, type: ReturnType): PropCheck {
  return (v, p) => {
    if (isObject(v)) {
      if ('path' in v) return (binding(refs, v, p), []);
      if ('call' in v) return functionCall(refs, v, p, type);
      if (type === 'boolean') return logic(refs, v, p);
      return [invalid(p, `must be a ${type} literal, a {path} binding or a function call`)];
    }
    const literalOk =
      type === 'any'
        ? typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
        : type === 'array'
          ? Array.isArray(v) && v.every((s) => typeof s === 'string')
          : typeof v === type;
    return literalOk ? [] : [invalid(p, `must be a ${type === 'array' ? 'list of strings' : type}, a {path} binding or a function call, not ${typeName(v)}`)];
  };
}

/** A ComponentId: a string naming another component of the same surface. */
export function componentRef(refs: Refs): PropCheck {
  return (v, p) => {
    if (typeof v !== 'string' || v === '') return [invalid(p, `must be a component id (a string), not ${typeName(v)}`, 'children are referenced by id, never defined inline')];
    refs.components.push({ id: v, pointer: p });
    return [];
  };
}

/** A ChildList: an array of ids, or a template `{componentId, path}` repeated over a data list. */
export function childList(refs: Refs): PropCheck {
  const ref = componentRef(refs);
  return (v, p) => {
    if (Array.isArray(v)) return v.flatMap((id, i) => ref(id, child(p, i)));
    if (isObject(v)) {
      const out: Diagnostic[] = [];
      for (const k of Object.keys(v)) if (k !== 'componentId' && k !== 'path') out.push(invalid(child(p, k), `a child template has no property \`${k}\``));
      if (!('componentId' in v)) out.push(invalid(child(p, 'componentId'), 'a child template needs componentId'));
      else pushAll(out, ref(v.componentId, child(p, 'componentId')));
      if (!('path' in v)) out.push(invalid(child(p, 'path'), 'a child template needs path'));
      else checkPath(refs, v.path, child(p, 'path'));
      return out;
    }
    return [invalid(p, `must be an array of component ids or a {componentId, path} template, not ${typeName(v)}`)];
  };
}

/** An Action: a server event `{event: {name, context?}}` or a local `{functionCall}`. */
export function action(refs: Refs): PropCheck {
  return (v, p) => {
    if (!isObject(v) || Object.keys(v).length !== 1 || !('event' in v || 'functionCall' in v)) {
      return [invalid(p, 'an action is {event: {name, context?}} or {functionCall: {...}}')];
    }
    if ('functionCall' in v) return isObject(v.functionCall) ? functionCall(refs, v.functionCall, child(p, 'functionCall'), 'any') : [invalid(child(p, 'functionCall'), 'must be a function call')];
    const ev = v.event;
    const at = child(p, 'event');
    if (!isObject(ev)) return [invalid(at, 'must be an object {name, context?}')];
    const out: Diagnostic[] = [];
    for (const k of Object.keys(ev)) if (k !== 'name' && k !== 'context') out.push(invalid(child(at, k), `an event has no property \`${k}\``));
    if (typeof ev.name !== 'string' || ev.name === '') out.push(invalid(child(at, 'name'), 'an event needs a name'));
    else refs.events.push({ name: ev.name, pointer: child(at, 'name') });
    if ('context' in ev) {
      if (!isObject(ev.context)) out.push(invalid(child(at, 'context'), 'context must be an object'));
      else for (const [k, x] of Object.entries(ev.context)) pushAll(out, dynamic(refs, 'any')(x, child(child(at, 'context'), k)));
    }
    return out;
  };
}

/** A check rule of an input component: a boolean condition with the message shown when it fails. */
export function checkRule(refs: Refs): PropCheck {
  return (v, p) => {
    if (!isObject(v)) return [invalid(p, 'a check is an object with a message')];
    const out: Diagnostic[] = [];
    if (typeof v.message !== 'string') out.push(invalid(child(p, 'message'), 'a check needs a message'));
    const { message: _m, ...rest } = v;
    void _m;
    if ('condition' in rest) {
      for (const k of Object.keys(rest)) if (k !== 'condition') out.push(invalid(child(p, k), `a condition check has no property \`${k}\``));
      pushAll(out, dynamic(refs, 'boolean')(rest.condition, child(p, 'condition')));
    } else if ('call' in rest) {
      pushAll(out, functionCall(refs, rest, p, 'boolean'));
    } else {
      pushAll(out, logic(refs, rest, p));
    }
    return out;
  };
}
