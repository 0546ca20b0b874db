// typescript-eslint's type-checked recommendations over every TypeScript file tsconfig.json covers,
// plus no-floating-promises (a promise nobody awaits loses its error).
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.serverless/',
      '.esbuild/',
      '.esbuild-offline/',
      '.build/',
      '.cache/',
      '.data/',
      '.devnet/',
      '.test-output/',
      'coverage/',
      // Imports types generated at test time; tests/e2e/typedClient.test.ts typechecks it.
      'tests/e2e/typedClient/journey.ts',
    ],
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A leading underscore marks a parameter or destructured field dropped on purpose (as tsc's noUnused* treats it).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['functions/docs/*.ts'],
    rules: {
      // Lambda's Node runtime wants a promise back; these answer from memory, with nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: {
      // vitest types its asymmetric matchers (expect.any, expect.stringMatching, …) as any, by design.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
)
