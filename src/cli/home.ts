/** The user's home for a command: `$HOME`, else the account's (an empty HOME counts as none). */
import { homedir } from 'node:os';
import type { CliIO } from './io.js';

export function homeDir(io: CliIO): string {
  const h = io.env.HOME;
  return h !== undefined && h !== '' ? h : homedir();
}
