/**
 * The composition root: fills the framework's registries (framework/plugins/, and the graders'
 * framework/grading/grader-plugin.ts) with agents/ and graders/, which framework/ never imports.
 * Imported for that effect before any framework code runs: by bin/mancala.js, by vitest
 * (setupFiles), and by each worker thread that runs plugin code (registries are per thread: the
 * thread imports compositionRoot()).
 */
import { register as registerAgents } from '../agents/plugin.ts';
import { setCompositionRoot } from '../framework/plugins/composition.ts';
import { register as registerGraders } from '../graders/plugin.ts';

registerAgents();
registerGraders();
setCompositionRoot(import.meta.url);
