import type { Command } from 'commander';
import type { Runner } from '../context.js';
import { registerAudit } from './audit/index.js';
import { registerContract } from './contract/index.js';
import { registerConvert } from './convert/index.js';
import { registerInit } from './init/index.js';
import { registerMcp } from './mcp/index.js';
import { registerKeygen } from './keygen/index.js';
import { registerPack } from './pack/index.js';
import { registerPin } from './pin/index.js';
import { registerPrompt } from './prompt/index.js';
import { registerPull } from './pull/index.js';
import { registerPush } from './push/index.js';
import { registerRun } from './run/index.js';
import { registerRegistry } from './registry/index.js';
import { registerSkill } from './skill/index.js';
import { registerValidate } from './validate/index.js';
import { registerVerifyPins } from './verify-pins/index.js';

/** Every command, in the order `skillctl --help` lists them. */
export const COMMANDS: readonly ((program: Command, run: Runner) => void)[] = [
  registerValidate,
  registerContract,
  registerInit,
  registerConvert,
  registerPrompt,
  registerSkill,
  registerRun,
  registerAudit,
  registerRegistry,
  registerMcp,
  registerPack,
  registerPush,
  registerPull,
  registerPin,
  registerVerifyPins,
  registerKeygen,
];
