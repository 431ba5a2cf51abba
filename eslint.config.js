// Lint: typescript-eslint's type-aware recommended rules, tuned where the code base has a reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'test/fixtures/', 'docs/', 'src/client/openapi-types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.js', 'scripts/*.mjs', 'bench/support/*.mjs'],
          // The plain scripts outside tsconfig are few and small; checking them this way costs little.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Unused names are mistakes, except the ones marked as deliberately ignored.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Fastify hooks and handlers are async functions passed where a callback is typed void.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Numbers and booleans read fine in messages.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // Parsed JSON from sources and drivers is `any` at the edge; it is validated where it enters a domain.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Kysely's migration signature and our parsers are async by contract even when a body has no await.
      '@typescript-eslint/require-await': 'off',
      // A floating promise is a lost error: every one must be awaited, returned or marked with void.
      '@typescript-eslint/no-floating-promises': 'error',
      // String(value) of source and request values is deliberate: objects are refused by validation
      // before their text matters, and the rule cannot tell those values from typed ones.
      '@typescript-eslint/no-base-to-string': 'off',
      // A `let` read by a closure before its one assignment (a signal handler set up before start) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-control-regex': 'off', // the input guards match control characters on purpose
      'max-len': [
        'error',
        {
          code: 160,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignoreComments: false,
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // node:test's describe/it return promises the runner awaits.
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The console's browser code (console/): plain modules bundled by esbuild, outside the TypeScript project.
    files: ['console/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'localStorage', 'fetch', 'navigator', 'confirm', 'addEventListener', 'removeEventListener']
          .concat(['performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'console', 'URL', 'Blob', 'FileReader'])
          .map((name) => [name, 'readonly']),
      ),
    },
  },
);
