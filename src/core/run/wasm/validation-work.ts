/**
 * What the engine's validation of a module will cost, bounded before the engine is asked.
 * WebAssembly.validate runs on the run's own thread, before the deadline starts (runtimes/wasm.ts
 * checkWasmModule, twice: the module as written and as rewritten), and no signal interrupts it.
 * Its time is not the module's size: a function's locals are laid out one by one (three bytes
 * declare 50,000 of them), and every block, call, branch and return in unreachable code conjures
 * or drops each value of its type (a few bytes name a type of a thousand results). A module of
 * 1 MB, 100,000 functions of 50,000 locals each, kept the thread 11.6 s in validation; one of
 * 600 KB, 100,000 blocks of a thousand results, 4.3 s; at 16 MiB, minutes, during which the run's
 * thread (an `mcp` server's for every session) answers nothing.
 *
 * So the body of every function is decoded first (instructions.ts, as the metering pass does)
 * and charged for what the engine will do beyond reading its bytes: each declared local, and the
 * arity of the type each call and typed block names, of the label each branch targets and of
 * the function's results at each return and at its end. Ordinary code declares fewer locals than it has bytes,
 * and its calls pass a few values each: its work is well below MAX_VALIDATION_WORK.
 */
import { readLimits, Reader, sections, skipRefType, skipValType, WasmFormatError, type Section } from './binary.js';
import { FuncTypes } from './func-types.js';
import { OP, readInstruction } from './instructions.js';

/**
 * The most work (values laid out or checked) a module may ask of the engine's validation. At the
 * bound, each of the two validations took 0.06 s (locals) to 0.5 s (blocks of a thousand results).
 */
export const MAX_VALIDATION_WORK = 16 * 1024 * 1024;

const CALL = 0x10;
const CALL_INDIRECT = 0x11;
const RETURN_CALL = 0x12;
const RETURN_CALL_INDIRECT = 0x13;

interface Arity {
  readonly params: number;
  readonly results: number;
}

/** The number of params and results of each type, decoded once per type (none: 0 and 0). */
function arities(types: FuncTypes): (index: number) => Arity {
  const known = new Map<number, Arity>();
  return (index) => {
    let n = known.get(index);
    if (n === undefined) {
      const t = types.get(index);
      n = { params: t?.params.length ?? 0, results: t?.results.length ?? 0 };
      known.set(index, n);
    }
    return n;
  };
}

/** The type index of each function, imported ones first, and how many are imported. */
function functionTypes(bytes: Uint8Array, imports: Section | undefined, funcs: Section | undefined): { readonly of: number[]; readonly imported: number } {
  const out: number[] = [];
  if (imports !== undefined) {
    const r = new Reader(bytes, imports.start, imports.end);
    for (let i = r.u32(); i > 0; i--) {
      r.name();
      r.name();
      const kind = r.byte();
      if (kind === 0) out.push(r.u32());
      else if (kind === 1) {
        skipRefType(r);
        readLimits(r);
      } else if (kind === 2) readLimits(r);
      else if (kind === 3) {
        skipValType(r);
        r.byte();
      } else if (kind === 4) {
        // A tag (exceptions): refused later, by the rewrite, as every import but a function.
        r.byte();
        r.u32();
      } else throw new WasmFormatError(`import kind ${kind} is not supported`);
    }
  }
  const imported = out.length;
  if (funcs !== undefined) {
    const r = new Reader(bytes, funcs.start, funcs.end);
    for (let i = r.u32(); i > 0; i--) out.push(r.u32());
  }
  return { of: out, imported };
}

/**
 * The validation work of the module's code, counted until it passes `max` (then a number past
 * it). Throws WasmFormatError where the code cannot be decoded: such a module is refused
 * before the engine sees it, or work after that point would go uncounted.
 */
export function validationWork(bytes: Uint8Array, max: number = MAX_VALIDATION_WORK): number {
  const list = sections(bytes);
  const find = (id: number): Section | undefined => list.find((s) => s.id === id);
  const types = FuncTypes.read(bytes, find(1));
  const arity = arities(types);
  const funcs = functionTypes(bytes, find(2), find(3));
  const all = (a: Arity): number => a.params + a.results;
  const code = find(10);
  if (code === undefined) return 0;
  const r = new Reader(bytes, code.start, code.end);
  let work = 0;
  for (let f = r.u32(), i = 0; i < f; i++) {
    const size = r.u32();
    const end = r.pos + size;
    const body = new Reader(bytes, r.pos, end);
    // The immediates of the instruction just read, read again from its opcode on.
    const imm = new Reader(bytes, r.pos, end);
    r.skip(size);
    for (let groups = body.u32(); groups > 0; groups--) {
      work += body.u32();
      skipValType(body);
    }
    const results = arity(funcs.of[funcs.imported + i] ?? -1).results;
    // The function's own end checks its results, even in unreachable code.
    work += results;
    // The arity of each enclosing label, innermost last: a branch checks the values of its target.
    const labels: number[] = [results];
    while (labels.length > 0) {
      if (work > max) return work;
      const at = body.pos;
      const op = readInstruction(body);
      imm.pos = at + 1;
      switch (op) {
        case OP.block:
        case OP.loop:
        case OP.if: {
          // Empty (0x40), one value type (negative), or a type index, whose values the engine
          // checks on entry and at the end (and again at `else`).
          const t = imm.s33();
          const typed = t >= 0 ? arity(t) : { params: 0, results: t === -0x40 ? 0 : 1 };
          work += 2 * all(typed);
          labels.push(op === OP.loop ? typed.params : typed.results);
          break;
        }
        case OP.end:
          labels.pop();
          break;
        case OP.br:
        case OP.brIf:
          work += labels[labels.length - 1 - imm.u32()] ?? 0;
          break;
        case OP.brTable:
          for (let n = imm.u32(); n >= 0; n--) work += labels[labels.length - 1 - imm.u32()] ?? 0;
          break;
        case OP.return:
          work += results;
          break;
        case CALL:
        case RETURN_CALL:
          work += all(arity(funcs.of[imm.u32()] ?? -1)) + (op === RETURN_CALL ? results : 0);
          break;
        case CALL_INDIRECT:
        case RETURN_CALL_INDIRECT:
          work += all(arity(imm.u32())) + (op === RETURN_CALL_INDIRECT ? results : 0);
          break;
        default:
          break;
      }
    }
    if (!body.done) throw new WasmFormatError('code after the end of a function body');
  }
  return work;
}

/**
 * Why the module is refused before the engine validates it: more work than the bound, or code the
 * decoder cannot read; undefined when the engine may be asked.
 */
export function validationRefusal(bytes: Uint8Array): string | undefined {
  try {
    if (validationWork(bytes) <= MAX_VALIDATION_WORK) return undefined;
    return `the module's code would keep the engine's validation busy for more than ${MAX_VALIDATION_WORK} values (locals declared, and the values of each call, typed block, branch, return and function end), on the run's thread before its deadline`;
  } catch (err) {
    if (err instanceof WasmFormatError || err instanceof RangeError) return `the module is not valid WebAssembly: ${err.message}`;
    throw err;
  }
}
