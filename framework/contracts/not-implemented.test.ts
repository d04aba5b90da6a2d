import { describe, expect, it } from 'vitest';
import { isUnfinished, NotImplementedYet, UNFINISHED_MARK, unfinishedPart, unfinishedWording } from './not-implemented.ts';

describe('a function not written yet reads alike in every course', () => {
  it("as \"not written yet: <function>\", from what each course's starter and bridge say, never as the crash that carried it", () => {
    // CSC384's Python bridge (the starter raises NotImplementedError), after the process's exit
    const csc384 = "the submission's process exited with code 1; its stderr ended with: agent_alphabeta.py: alphabeta_max_basic failed: NotImplementedYet: alphabeta_max_basic is not written yet (it raised NotImplementedError)";
    expect(unfinishedWording(csc384)).toBe('not written yet: alphabeta_max_basic (agent_alphabeta.py)');
    // CPSC 4610's Python bridge
    expect(unfinishedWording(`the submission's process exited with code 1; its stderr ended with: YourPlayer.py: MancalaPlayer.score ${UNFINISHED_MARK}MancalaPlayer.score is not written yet (it raised NotImplementedError)`)).toBe(
      'not written yet: MancalaPlayer.score (YourPlayer.py)',
    );
    // CS540's Java bridge (the starter throws UnsupportedOperationException("not written yet: …"))
    expect(unfinishedWording(`the submission's process exited with code 1; its stderr ended with: ${UNFINISHED_MARK}studPlayer.move(GameState state): iterative deepening`)).toBe(
      'not written yet: studPlayer.move(GameState state): iterative deepening',
    );
    // a TypeScript starter's NotImplementedYet, as the sandbox runtime reports a throw
    const thrown = new NotImplementedYet('minimax_max_basic');
    expect(unfinishedWording(`role minimax: chooseMove failed: ${thrown.name}: ${thrown.message}`)).toBe('not written yet: minimax_max_basic');
    // worded once, it stays the same function (a match's forfeit quotes it after its own words)
    expect(unfinishedPart('crash at move 4: not written yet: studPlayer.move(GameState state)')).toBe('studPlayer.move(GameState state)');
    expect(isUnfinished('not written yet: minimax_max_basic (agent_minimax.py)')).toBe(true);
    // anything else is left as it is
    expect(unfinishedWording("the submission's process exited with code 1; its stderr ended with: Traceback … ZeroDivisionError")).toBeUndefined();
    expect(isUnfinished('move: expected B5 (index 5), got B2 (index 2)')).toBe(false);
  });
});
