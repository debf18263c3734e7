import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist.build-*/**', 'dist.old-*/**', 'node_modules/**', '.tools/**', 'src/generated/**', 'fixtures/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', performance: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', AbortController: 'readonly', structuredClone: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
      // Refusing control characters in paths and names is deliberate.
      'no-control-regex': 'off',
    },
  },
  {
    // The shell: the only place that may print or touch the process.
    files: ['src/cli/**', 'bin/**', 'scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // `x.push(...y)` and `Math.max(...y)` pass every item as an argument: an array of a hundred
    // thousand findings overflows the stack (issue 20). Use pushAll (src/core/findings.ts) or a
    // loop.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name=/^(push|unshift)$/] > SpreadElement", message: 'use pushAll (src/core/findings.ts): a spread of a large array overflows the stack' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement", message: 'reduce instead: a spread of a large array overflows the stack' },
      ],
    },
  },
  {
    files: ['**/*.cjs', 'bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Core never touches the process: no printing, exiting, cwd or environment reads.
    files: ['src/core/**/*.ts', 'src/skills/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'core returns results; the CLI picks the exit code' },
        { object: 'process', property: 'cwd', message: 'pass the working directory in' },
        { object: 'process', property: 'env', message: 'pass the environment in' },
        { object: 'process', property: 'stdout', message: 'core never prints' },
        { object: 'process', property: 'stderr', message: 'core never prints' },
        { object: 'Date', property: 'now', message: 'pass a clock in' },
      ],
    },
  },
);
