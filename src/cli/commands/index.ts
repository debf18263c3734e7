import type { Command } from 'commander';
import type { Runner } from '../context.js';
import { registerConvert } from './convert.js';
import { registerInit } from './init.js';
import { registerKeygen } from './keygen.js';
import { registerPack } from './pack.js';
import { registerPin } from './pin.js';
import { registerPrompt } from './prompt.js';
import { registerValidate } from './validate.js';
import { registerVerifyPins } from './verify-pins.js';

/** Every command, in the order `skillctl --help` lists them. */
export const COMMANDS: readonly ((program: Command, run: Runner) => void)[] = [
  registerValidate,
  registerInit,
  registerConvert,
  registerPrompt,
  registerPack,
  registerPin,
  registerVerifyPins,
  registerKeygen,
];
