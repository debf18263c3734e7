/**
 * The table of CLI golden cases (test/cli/golden.test.ts runs them), one list per command group in
 * golden-cases/. Each case's name, and so its file fixtures/cli-golden/<name>.golden, comes from
 * its arguments (plus its label): see caseName in test/helpers/golden-cli.ts.
 */
import type { GoldenCase } from '../helpers/golden-cli.js';
import { AUTHORING } from './golden-cases/authoring.js';
import { CONTRACT } from './golden-cases/contract.js';
import { GENERAL } from './golden-cases/general.js';
import { KEYGEN, PACK, PIN, VERIFY_PINS, VERIFY_PINS_GIT } from './golden-cases/pins.js';
import { REGISTRY } from './golden-cases/registry.js';
import { AUDIT, RUN } from './golden-cases/run.js';
import { SKILL } from './golden-cases/skill.js';
import { VALIDATE } from './golden-cases/validate.js';

export const CASES: readonly GoldenCase[] = [...GENERAL, ...VALIDATE, ...CONTRACT, ...AUTHORING, ...SKILL, ...RUN, ...AUDIT, ...REGISTRY, ...PACK, ...PIN, ...VERIFY_PINS, ...VERIFY_PINS_GIT, ...KEYGEN];
