/**
 * The registry of graders: how the runner grades a case without importing graders/. The
 * composition root registers graders/'s two entry points; their contracts are here. It sits in
 * grading/, not with the other registries in plugins/: its contract speaks of suites and of what
 * the sandbox observed, layers above plugins/ (the suites look agents up there).
 */
import { pluginSlot } from '../plugins/slot.ts';
import type { CheckResult, GradeInput } from './types.ts';

export interface GraderPlugin {
  /** Runs the grader of every check the case asks for (a check set to false is skipped), in a fixed order. */
  gradeCase(input: GradeInput): Promise<CheckResult[]>;
  /** One message for a case from its checks' results; empty when every check passed. */
  caseMessage(results: readonly CheckResult[]): string;
}

const graders = pluginSlot<GraderPlugin>('the graders', 'registerGraders');

export function registerGraders(plugin: GraderPlugin): void {
  graders.set(plugin);
}

export function gradeCase(input: GradeInput): Promise<CheckResult[]> {
  return graders.get().gradeCase(input);
}

export function caseMessage(results: readonly CheckResult[]): string {
  return graders.get().caseMessage(results);
}
