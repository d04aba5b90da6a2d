/**
 * The Python and Java clients (agents/clients/python, agents/clients/java) as a new course's
 * students use them: each request carries the game's rules from the hello, so an agent can play
 * another course's rules; the Java client sends the evaluations count a search reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameSpec } from '../../suites/game.ts';
import { StdioAgentSession } from './session.ts';
import { findStdioAgent } from './spec.ts';
import { submissionFolder } from '../../../testcases/fixtures/submission-folder.ts';

const work = mkdtempSync(join(tmpdir(), 'stdio-clients-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const START = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };

const folder = (name: string, files: Record<string, string>) => submissionFolder(work, name, files);

/** Asks the agent at `dir` for one move of the start position under `profile`. */
async function ask(dir: string, profile: string) {
  const game = gameSpec(profile);
  const session = await StdioAgentSession.open((await findStdioAgent(dir))!, { memoryMb: 256 }, { game });
  try {
    return await session.chooseMove(START, 0, {}, 20_000);
  } finally {
    await session.close();
  }
}

describe('the rules travel with every request', () => {
  // Plays pit 1 where free turns count, pit 4 where they do not, and tells the evaluations it made.
  const python = folder('python-rules', {
    'agent.py': 'from mancala_agent import run\n\ndef choose_move(request):\n    return {"move": 1 if request["rules"]["freeTurn"] else 4, "evaluations": request["rules"]["pits"]}\n\nrun(choose_move, "rules")\n',
  });
  const java = folder('java-rules', {
    'RulesAgent.java': [
      'public class RulesAgent {',
      '    public static void main(String[] args) throws Exception {',
      '        MancalaAgent.run("rules", r -> new MancalaAgent.Answer(Boolean.TRUE.equals(r.rules.get("freeTurn")) ? 1 : 4).evaluations(((Double) r.rules.get("pits")).longValue()));',
      '    }',
      '}',
      '',
    ].join('\n'),
  });

  it.each([
    ['Python', python],
    ['Java', java],
  ])('%s: the kalah rules (free turns) and the csc384 rules (none) give different moves', async (_language, dir) => {
    expect(await ask(dir, 'kalah')).toMatchObject({ status: 'ok', observation: { move: 1, evaluations: 6 } });
    expect(await ask(dir, 'csc384')).toMatchObject({ status: 'ok', observation: { move: 4, evaluations: 6 } });
  }, 120_000);
});
