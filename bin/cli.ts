/**
 * What `mancala` runs (bin/mancala.js bundles it: framework/workers/source-bundle.ts): the
 * composition root, then the command line.
 */
import './plugins.ts';

export { main } from '../framework/cli/main.ts';
