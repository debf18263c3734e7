/**
 * `--mcp 'COMMAND ARGS…'` split into an argv without a shell: words separated by blanks, quoted
 * with '…' (literal) or "…" (where \" \\ \$ and \` are escapes), a backslash outside quotes
 * escaping the next character. Nothing is expanded ($VAR, ~, globs, $(…)): the string names a
 * program and its arguments, it is not a script, so a server command can never run a second one.
 */

/** The words of `line`, or why it cannot be split (an open quote, a trailing backslash, no word). */
export function splitCommand(line: string): { readonly argv: readonly string[] } | { readonly problem: string } {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) word += line[++i];
      else word += c;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (i + 1 >= line.length) return { problem: 'the command ends in a backslash' };
      word += line[++i];
    } else word += c;
  }
  if (quote !== undefined) return { problem: `the command has an unclosed ${quote} quote` };
  if (inWord) argv.push(word);
  if (argv.length === 0) return { problem: 'the command is empty' };
  if (argv.some((a) => a.includes('\0'))) return { problem: 'the command holds a NUL character' };
  return { argv };
}
