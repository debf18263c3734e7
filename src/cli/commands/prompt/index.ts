import type { Command } from 'commander';
import type { Runner } from '../../context.js';

export function registerPrompt(program: Command, run: Runner): void {
  program
    .command('prompt')
    .description('Print the <available_skills> block that agents put in their system prompt, for SKILL.md folders.')
    .argument('[dirs...]', "skill folders, or folders searched for them (default: the project's skill roots)")
    .addHelpText(
      'after',
      `
Prints name, description and location (the absolute path of SKILL.md) of each skill, XML-escaped,
exactly as the Agent Skills reference library's to-prompt does. A skill whose SKILL.md cannot be
read (no frontmatter, invalid YAML, no name or description) stops the command: nothing is printed.

Examples:
  $ skillctl prompt                             every skill under the project's skill roots
  $ skillctl prompt .agents/skills              every skill under the folder
  $ skillctl prompt pdf-tools code-review > catalog.xml
  $ skillctl prompt --json .claude/skills       {"skills":[{"name","description","location"}...]}`,
    )
    .action(async (dirs: string[]) => run(async (ctx) => (await import('./run.js')).run(ctx, dirs)));
}
