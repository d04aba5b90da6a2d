/** What graders/ gives the framework (framework/grading/grader-plugin.ts): grading a case and its message. Called by the composition root. */
import { registerGraders } from '../framework/grading/grader-plugin.ts';
import { caseMessage, gradeCase } from './index.ts';

export function register(): void {
  registerGraders({ gradeCase, caseMessage });
}
