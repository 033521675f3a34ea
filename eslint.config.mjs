// Lint for the whole TypeScript tree: `make lint` (part of `make test`), zero warnings allowed.
// typescript-eslint's `strict` preset and React's hook rules for the client's hooks. Layout
// (quotes, semicolons, indentation, line length 140) is Prettier's (.prettierrc.json, `make
// format-check`); eslint-config-prettier, last, turns off every rule that would disagree with it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/generated/**', // written by openapi-typescript
      'libs/client-py/**', // Python: its own tools
      'libs/client-go/**', // Go: go vet
      '.data/**',
      'dist/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      // `_name` marks a parameter or binding that is there for its position (a handler's signature,
      // a destructured tuple), not for use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A binding read by a callback declared before it is assigned (a timer the close handler clears).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Node scripts outside the TypeScript tree (infra/bin/*.mjs).
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['libs/client-ts/src/react.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The UI cards' browser code reads API JSON untyped: typing it against the generated OpenAPI
    // types waits for the FHIR shapes (issue 22 item 1), so each body is typed once.
    files: ['apps/gateway/src/ui/cards/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read JSON bodies whose shape is the thing under test: `any` there is the honest type.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // In a test, `rows[0]!` asserts what the test expects: when it does not hold, the test fails
      // with a TypeError at that line, which is the failure wanted. Outside test/ the rule holds:
      // code narrows or says what it expected (`must(value, what)` of @vitalis/runtime, or the cards' copy).
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
