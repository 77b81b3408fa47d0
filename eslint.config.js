// ESLint flat config. Formatting is Prettier's (.prettierrc.json); unused names are tsc's (noUnusedLocals, noUnusedParameters).
// TypeScript files get type information from tsconfig.json through the project service, so every linted .ts file must be in its include.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'data/', 'logs/', 'coverage/', 'test/fixtures/']),

  { linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' } },

  // Core rules that find bugs (no stylistic ones); tseslint's eslintRecommended below turns off those tsc already enforces in .ts files.
  js.configs.recommended,

  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.eslintRecommended],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-unused-vars': 'off', // tsc: noUnusedLocals, noUnusedParameters

      // Type-aware.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default:` does not stand in for a missing member of a union: adding a member to a union flags every switch that misses it.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, allowDefaultCaseForExhaustiveSwitch: true, requireDefaultForNonUnion: false },
      ],

      // Syntactic.
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },

  // Plain JavaScript config files (eslint.config.js, ecosystem.config.cjs): not in tsconfig.json, so no type information.
  { files: ['**/*.js', '**/*.mjs'], ignores: ['src/web/assets/**'], languageOptions: { sourceType: 'module', globals: globals.node } },
  // The admin page's script runs in the browser, as a classic script (src/web/assets/admin.js).
  { files: ['src/web/assets/**/*.js'], languageOptions: { sourceType: 'script', globals: globals.browser } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
);
