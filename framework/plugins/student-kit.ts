/**
 * A student kit's package (`mancala kit`) holds the framework without the course's reference
 * solutions: its composition root registers only what the course gives its students, and says so
 * here. What the kit does not hold is then the course's, not a wiring bug: asking for it is a
 * one-line message (withheld), the sandbox falls back to running the student's own code
 * unconfined where bubblewrap is missing (as on macOS and Windows), and a check leaves out the
 * cases that need a reference to run.
 */
import type { Agent } from '../contracts/agent.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import { UserError } from '../errors.ts';

/** A tool the kit's course needs on the student's machine: kit.json's `requires` (kit/requirements.ts checks them). */
export interface KitRequirement {
  tool: string | string[];
  all?: boolean;
  install: string;
  when?: string[];
}

let kitCourse: string | undefined;
let kitRequires: readonly KitRequirement[] = [];

/** Called by a student kit's composition root, first: the course, and what its students' machines need (kit.json's `requires`). */
export function declareStudentKit(course: string, requires: readonly KitRequirement[] = []): void {
  kitCourse = course;
  kitRequires = requires;
}

/** The tools this kit's course needs on the student's machine (none in the instructor's tool). */
export function studentKitRequirements(): readonly KitRequirement[] {
  return kitRequires;
}

/** The course whose student kit this is; undefined in the instructor's tool. */
export function studentKitCourse(): string | undefined {
  return kitCourse;
}

/** What the kit says when asked for `what` (the reference alpha-beta, the csci561 solution, …). */
export function withheldMessage(what: string): string {
  return `${what}: part of the course's reference, which this student kit (${kitCourse ?? 'a student kit'}) does not hold; your instructor's grading runs it`;
}

/** A reference agent a suite or a spec may name, held back from the kit: naming it works, running it says why not. */
export function withheldAgent(name: string): Agent {
  return {
    name,
    chooseMove() {
      throw new UserError(withheldMessage(`the agent ${name}`));
    },
  };
}

/** A reference heuristic held back from the kit, as withheldAgent. */
export function withheldHeuristic(name: string): Heuristic {
  return {
    name,
    evaluate() {
      throw new UserError(withheldMessage(`the heuristic ${name}`));
    },
  };
}
