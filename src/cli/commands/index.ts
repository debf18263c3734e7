import type { Command } from 'commander';
import type { Runner } from '../context.js';
import { registerAudit } from './audit.js';
import { registerContract } from './contract.js';
import { registerConvert } from './convert.js';
import { registerInit } from './init.js';
import { registerMcp } from './mcp.js';
import { registerKeygen } from './keygen.js';
import { registerPack } from './pack.js';
import { registerPin } from './pin.js';
import { registerPrompt } from './prompt.js';
import { registerRun } from './run.js';
import { registerRegistry } from './registry.js';
import { registerSkill } from './skill.js';
import { registerValidate } from './validate.js';
import { registerVerifyPins } from './verify-pins.js';

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
  registerPin,
  registerVerifyPins,
  registerKeygen,
];
