/**
 * The contract of a built-in skill as its shipped manifest (manifests/default/<id>/skill.yaml)
 * states it, compiled with the project's runtime schema compiler; and a runner that calls the
 * skill in-process and checks every result against that contract, as the run engine will.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileSchema, type CompiledSchema } from '../../src/core/json-schema/index.js';
import { parseDocumentBytes, type Manifest } from '../../src/core/manifest/index.js';
import type { BuiltinContext, BuiltinOutcome } from '../../src/core/run/index.js';
import { BUILTINS } from '../../src/skills/index.js';
import { ROOT } from './paths.js';

export interface SkillContract {
  readonly manifest: Manifest;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema;
  readonly error: CompiledSchema;
}

const cache = new Map<string, Promise<SkillContract>>();

async function compiled(schema: unknown): Promise<CompiledSchema> {
  const c = await compileSchema(schema);
  if ('error' in c) throw new Error(c.error.message);
  return c;
}

async function load(id: string): Promise<SkillContract> {
  const doc = parseDocumentBytes(await readFile(join(ROOT, 'manifests', 'default', id, 'skill.yaml')), 'yaml');
  const manifest = doc.data as Manifest;
  const ep = manifest.entrypoints[0];
  if (ep === undefined) throw new Error(`${id} has no entrypoint`);
  return { manifest, input: await compiled(ep.input_schema), output: await compiled(ep.output_schema), error: await compiled(ep.error_schema) };
}

export function contractOf(id: string): Promise<SkillContract> {
  let c = cache.get(id);
  if (c === undefined) {
    c = load(id);
    cache.set(id, c);
  }
  return c;
}

/** Codes and pointers of the findings of `input` against the skill's input_schema. */
export async function inputFindings(id: string, input: unknown): Promise<{ code: string; pointer: string | undefined }[]> {
  return (await contractOf(id)).input.check(input).map((d) => ({ code: d.code, pointer: d.pointer }));
}

/**
 * Runs the skill after checking that the request conforms to its input_schema, then checks the
 * outcome against output_schema or error_schema. Returns the outcome.
 */
export async function runSkill(id: string, input: unknown, ctx: BuiltinContext, opts: { unchecked?: boolean } = {}): Promise<BuiltinOutcome> {
  const skill = BUILTINS.get(id);
  assert.ok(skill !== undefined, `no built-in skill ${id}`);
  const contract = await contractOf(id);
  if (opts.unchecked !== true) assert.deepEqual(contract.input.check(input), [], `request does not fit ${id}'s input_schema`);
  const outcome = await skill.run(input, ctx);
  if (outcome.status === 'ok') assert.deepEqual(contract.output.check(outcome.output), [], `${id}'s output breaks its output_schema`);
  if (outcome.status === 'error') assert.deepEqual(contract.error.check(outcome.error), [], `${id}'s error breaks its error_schema`);
  return outcome;
}

/** The output of an ok outcome (fails the test otherwise). */
export function okOutput<T = Record<string, unknown>>(outcome: BuiltinOutcome): T {
  assert.equal(outcome.status, 'ok', `expected ok, got ${JSON.stringify(outcome)}`);
  return (outcome as { output: T }).output;
}

export function errorCode(outcome: BuiltinOutcome): string {
  assert.equal(outcome.status, 'error', `expected an error, got ${JSON.stringify(outcome)}`);
  return (outcome as { error: { code: string } }).error.code;
}

export function denialCode(outcome: BuiltinOutcome): string {
  assert.equal(outcome.status, 'denied', `expected a denial, got ${JSON.stringify(outcome)}`);
  return (outcome as { decision: { code: string } }).decision.code;
}
