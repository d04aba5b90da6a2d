/** What graders/ gives the framework (framework/plugins/graders.ts): grading a case and its message. Called by the composition root. */
import { registerGraders } from '../framework/plugins/graders.ts';
import { caseMessage, gradeCase } from './index.ts';

export function register(): void {
  registerGraders({ gradeCase, caseMessage });
}
