// ESLint 9 flat config: eslint's and typescript-eslint's recommended rules, syntax only (no type information,
// so `npm run lint` stays fast). Layout is Prettier's job (.prettierrc.json), not ESLint's.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Build output and installs; the documentation work's paths (README.md, docs/, examples/, test/docs/) are
    // left to it, like .prettierignore does.
    ignores: ["dist/", "node_modules/", ".ci/out/", ".test-shards/", "docs/", "examples/", "test/docs/", "test/data/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: {
      // The sanitizers (src/common/sanitize.ts, src/schema/excerpt.ts, src/client/url-safety/) and their tests match
      // control characters on purpose: stripping or escaping them is the point.
      "no-control-regex": "off",
      // The same sanitizers list invisible and combining code points (variation selectors, skin-tone modifiers, joiners)
      // one by one in character classes on purpose, to find them alone, not as parts of a grapheme.
      "no-misleading-character-class": "off",
      // `_name` marks a parameter or binding kept for its position; `const { dropped, ...rest } = x` drops a key.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["test/**"],
    rules: {
      // Tests read loosely typed wire messages and tool results (`as any`, `(m: any) => m.role`) and stand in for SDK
      // internals; typing each would add nothing the assertions don't already check.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: ["test/types/**"],
    rules: {
      // Type tests declare values only to take `typeof` of them.
      "@typescript-eslint/no-unused-vars": "off",
    },
  },
);
