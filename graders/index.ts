/**
 * The graders as the instructor's tool has them: every check (grade-case.ts), with "name the
 * bug" (name-the-bug/) explaining a search case's wrong move, value or node count by the
 * deliberately broken reference that answers exactly as the submission did.
 */
import { gradeCaseWith } from './grade-case.ts';
import { diagnose } from './name-the-bug/diagnose.ts';

export { caseMessage, CHECK_ORDER, DIAGNOSIS_PREFIX, GRADERS, gradeCaseWith, type CheckName, type Diagnose } from './grade-case.ts';

/** Every check a case asks for, in a fixed order, a wrong search answer explained when it can be. */
export const gradeCase = gradeCaseWith(diagnose);
