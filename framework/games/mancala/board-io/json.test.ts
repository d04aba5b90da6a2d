import { describe, expect, it } from 'vitest';
import { UserError } from '../../../errors.ts';
import { MancalaGame } from '../engine.ts';
import { findProfile } from '../profiles.ts';
import { boardToState } from './board.ts';
import { parseJsonBoard, writeJson, writeJsonBoard } from './json.ts';

const START = '{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,4],"stores":{"top":0,"bottom":0},"toMove":"bottom"}';

describe('the JSON board', () => {
  it('reads the documented example, rows left to right as the bottom player sees them', () => {
    expect(parseJsonBoard(START, 'board.json')).toEqual({ top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0, toMove: 0 });
    const game = new MancalaGame(findProfile('kalah')!.rules);
    const board = parseJsonBoard('{"top":[1,2,3,4,5,6],"bottom":[6,5,4,3,2,1],"stores":{"top":7,"bottom":8},"toMove":"top"}', 'b.json');
    expect(game.describe(boardToState(game, board))).toBe('top [1 2 3 4 5 6] store 7, bottom [6 5 4 3 2 1] store 8, top to move');
  });

  it('toMove and profile are optional; a byte-order mark is tolerated', () => {
    expect(parseJsonBoard('\uFEFF{"top":[1],"bottom":[2],"stores":{"top":3,"bottom":4}}', 'b.json')).toEqual({ top: [1], bottom: [2], topStore: 3, bottomStore: 4 });
    expect(parseJsonBoard('{"top":[1],"bottom":[2],"stores":{"top":3,"bottom":4},"profile":"csc384"}', 'b.json').profile).toBe('csc384');
  });

  it("also reads the form a suite's case file writes an inline board in (top_store, bottom_store, to_move)", () => {
    const caseForm = '{"top":[1,2,3,4,5,6],"bottom":[6,5,4,3,2,1],"top_store":7,"bottom_store":8,"to_move":"top"}';
    const jsonForm = '{"top":[1,2,3,4,5,6],"bottom":[6,5,4,3,2,1],"stores":{"top":7,"bottom":8},"toMove":"top"}';
    expect(parseJsonBoard(caseForm, 'b.json')).toEqual(parseJsonBoard(jsonForm, 'b.json'));
    expect(parseJsonBoard('{"top":[1],"bottom":[2],"top_store":3,"bottom_store":4}', 'b.json')).toEqual({ top: [1], bottom: [2], topStore: 3, bottomStore: 4 });
  });

  it('writes one field a line and reads back what it wrote, profile included', () => {
    const board = { top: [1, 2], bottom: [3, 4], topStore: 5, bottomStore: 6, toMove: 1 as const, profile: 'csci561' };
    const text = writeJsonBoard(board);
    expect(text).toBe('{\n  "top": [1,2],\n  "bottom": [3,4],\n  "stores": {"top": 5, "bottom": 6},\n  "toMove": "top",\n  "profile": "csci561"\n}\n');
    expect(parseJsonBoard(text, 'b.json')).toEqual(board);
    const game = new MancalaGame({ ...findProfile('kalah')!.rules, pits: 2 });
    expect(parseJsonBoard(writeJson(game, boardToState(game, board)), 'b.json')).toEqual({ ...board, profile: undefined });
  });

  const board = (fields: string): string => `{"top":[1,2],"bottom":[3,4],"stores":{"top":5,"bottom":6}${fields}}`;
  const cases: [what: string, text: string, message: string][] = [
    ['a negative store', '{"top":[1,2],"bottom":[3,4],"stores":{"top":-1,"bottom":6}}', 'board.json: field "stores.top": expected a whole number ≥ 0, got -1'],
    ['a fractional count', '{"top":[1,2.5],"bottom":[3,4],"stores":{"top":5,"bottom":6}}', 'board.json: field "top[1]": expected a whole number ≥ 0, got 2.5'],
    ['a count written as a string', '{"top":[1,2],"bottom":["3",4],"stores":{"top":5,"bottom":6}}', 'board.json: field "bottom[0]": expected a whole number ≥ 0, got "3"'],
    ['more than 40000 stones a pit', '{"top":[1,40001],"bottom":[3,4],"stores":{"top":5,"bottom":6}}', 'board.json: field "top[1]": expected at most 40000 stones a pit, got 40001'],
    ['an empty row', '{"top":[],"bottom":[],"stores":{"top":5,"bottom":6}}', 'board.json: field "top": expected a list of 1 to 20 pit counts, got an empty list'],
    ['more than 20 pits', `{"top":[${Array(21).fill(0)}],"bottom":[3,4],"stores":{"top":5,"bottom":6}}`, 'board.json: field "top": expected a list of 1 to 20 pit counts, got a list of 21'],
    ['a row that is not a list', '{"top":"1,2","bottom":[3,4],"stores":{"top":5,"bottom":6}}', 'board.json: field "top": expected a list of 1 to 20 pit counts, got "1,2"'],
    ['rows of different lengths', '{"top":[1,2],"bottom":[3,4,5],"stores":{"top":5,"bottom":6}}', 'board.json: field "bottom": expected 2 pits (as many as "top"), got 3'],
    ['a missing field', '{"top":[1,2],"bottom":[3,4]}', 'board.json: field "stores": expected an object {"top": …, "bottom": …}, but it is missing'],
    ['a missing store', '{"top":[1,2],"bottom":[3,4],"stores":{"top":5}}', 'board.json: field "stores.bottom": expected a whole number ≥ 0, but it is missing'],
    ['an unknown field', board(',"tomove":"top"'), 'board.json: field "tomove": unknown field; expected top, bottom, stores, toMove, profile, top_store, bottom_store, to_move'],
    ['a mix of the two forms', board(',"to_move":"top"'), 'board.json: field "to_move": mixes two board forms (this board also has "stores"): write "stores": {"top", "bottom"} and "toMove", or "top_store", "bottom_store" and "to_move"'],
    ['a case-file board without its bottom store', '{"top":[1,2],"bottom":[3,4],"top_store":5,"to_move":"top"}', 'board.json: field "bottom_store": expected a whole number ≥ 0, but it is missing'],
    ['a bad to_move', '{"top":[1,2],"bottom":[3,4],"top_store":5,"bottom_store":6,"to_move":"left"}', 'board.json: field "to_move": expected "bottom" or "top", got "left"'],
    ['an unknown store', '{"top":[1,2],"bottom":[3,4],"stores":{"top":5,"bottom":6,"left":0}}', 'board.json: field "stores.left": unknown field; expected top, bottom'],
    ['a bad toMove', board(',"toMove":1'), 'board.json: field "toMove": expected "bottom" or "top", got 1'],
    ['an unknown profile', board(',"profile":"oware"'), 'board.json: field "profile": expected one of kalah, kalah-empty-capture, csci561, csc384, cpsc4610, cs540, got "oware"'],
    ['a list instead of an object', '[1,2]', 'board.json: expected a JSON object with "top", "bottom" and "stores", got a list of 2'],
    ['more stones than the engine holds', `{"top":[1],"bottom":[1],"stores":{"top":40000,"bottom":0}}`, 'board.json: expected at most 40000 stones on the board, got 40002'],
    ['an empty file', '', 'board.json: expected valid JSON (Unexpected end of JSON input)'],
  ];
  for (const [what, text, message] of cases) {
    it(`reports ${what} on one line`, () => {
      expect(() => parseJsonBoard(text, 'board.json')).toThrow(new UserError(message));
    });
  }

  it('reports a JSON syntax error on one line, at its line when JSON.parse says where', () => {
    // Node's wording of JSON.parse errors varies between versions: assert the shape, not the words.
    const messageOf = (text: string): string => {
      try {
        parseJsonBoard(text, 'board.json');
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        return (e as Error).message;
      }
      throw new Error('expected a syntax error');
    };
    const missingComma = messageOf('{\n  "top": [1,2],\n  "bottom": [3,4]\n  "stores": {"top": 5, "bottom": 6}\n}');
    expect(missingComma).toMatch(/^board\.json(:4)?: expected valid JSON \(.+\)$/);
    const badToken = messageOf('{\n  "top": [1,\n  x]\n}');
    expect(badToken).toMatch(/^board\.json(:3)?: expected valid JSON \(.+\)$/);
    expect(badToken).not.toContain('\n');
  });
});
