'use strict';
// Counts characters, words and lines of the text it receives as JSON on stdin.
// Pure: no files, no network, no environment; the same input always gives the same output.
let raw = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  raw += chunk;
});
process.stdin.on('end', () => {
  let input;
  try {
    input = JSON.parse(raw);
  } catch {
    process.stdout.write(JSON.stringify({ code: 'BAD_INPUT', message: 'stdin is not JSON' }));
    process.exitCode = 1;
    return;
  }
  const text = String(input.text);
  const words = text.split(/\s+/u).filter((w) => w !== '').length;
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  process.stdout.write(JSON.stringify({ characters: [...text].length, words, lines }));
});
