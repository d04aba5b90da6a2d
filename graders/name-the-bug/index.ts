/** Name the bug: which deliberately broken reference a failed search submission matches. */
export { diagnose, matchVariants, MAX_DIAGNOSED_NODES, type Matches, type VariantMatch } from './diagnose.ts';
export { mutantSearch, type Algorithm, type MutantResult, type MutantSearchConfig, type TerminalRule } from './mutant-search.ts';
export { combine, pairsOf, variantsOf, type Variant } from './variants.ts';
