// One linter for the workspace: typescript-eslint's type-checked recommendations.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // scripts/partner-check/ is a partner's project, type-checked against the installed package (pnpm test:published).
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/*.mjs',
      '**/*.cjs',
      'docs/**',
      '.tmp/**',
      'scripts/partner-check/**',
      // Clients generated from docs/openapi.json by pnpm openapi: a partner's code, not ours.
      'apps/server/test/openapi/clients/oazapfts.ts',
      'apps/server/test/openapi/clients/openapi-typescript.ts',
      'apps/server/test/openapi/clients/hey-api/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_`-prefixed names mark a parameter kept for its position (Express error handlers, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Express 4 takes async handlers; each of ours catches and passes its error to next().
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { returns: false } }],
      // Kysely's expression builders are made to be destructured (`({ exists, selectFrom }) => ...`).
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests read supertest's untyped `res.body` and pin it with exact `toEqual`; typing every read adds noise, not safety.
    files: ['apps/server/test/**', 'apps/server/bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The scheduling engine has one door, index.ts (and computation.ts, its part without database code).
    files: ['apps/server/**/*.ts'],
    ignores: ['apps/server/src/scheduling/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/scheduling/*', '!**/scheduling/index.js', '!**/scheduling/computation.js'],
              message:
                'Import the scheduling module through scheduling/index.js (or computation.js, without database code).',
            },
          ],
        },
      ],
    },
  },
);
