// Lint: @eslint/js and typescript-eslint recommended rules (syntax only, not type-aware, so it
// stays fast; `tsc --noEmit` does the type checking). `npm test` runs it after the type check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/', 'openapi.json'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused: destructuring a field away, a placeholder argument.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // `import { z } from 'zod'` keeps all of zod (every locale) in each Lambda bundle; the
      // namespace import lets esbuild drop what is unused (~350 KB per function).
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod'`: it tree-shakes.",
        },
      ],
    },
  },
  {
    // Tests read JSON answers, CloudFormation templates and fuzzed bodies as `any` on purpose: the
    // point is to check their shape at run time. Production code keeps the rule.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
