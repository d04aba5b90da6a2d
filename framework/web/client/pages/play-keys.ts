/**
 * The Play page's keys: a pit by its number as the course names it (1–6 for cups, 0–5 for B0–B5,
 * 2–7 for B2–B7; where a longer name starts with the digits typed, the page waits 0.7 s for the
 * next one), or ←/→ to choose and Enter to play; U takes a move back, H asks for a hint.
 */
import type { PitView } from '../../shared/api.ts';
import { typingInField } from '../dom.ts';

/** The number a key press names a pit by: B3 → "3", A12 → "12", cup "4" → "4". */
export const pitNumber = (name: string) => name.replace(/^\D+/, '');

/** What the keys act on: the page's game. */
export interface KeyActions {
  hasGame(): boolean;
  humanTurn(): boolean;
  /** the pits of the player to move */
  moverPits(): PitView[];
  /** the pit chosen with ←/→ */
  selected(): number | undefined;
  select(index: number): void;
  play(index: number): void;
  undo(): void;
  hint(): void;
}

export function pitKeys(a: KeyActions): { onKey(e: KeyboardEvent): void; dispose(): void } {
  let typed = '';
  let typedTimer: ReturnType<typeof setTimeout> | undefined;

  function onKey(e: KeyboardEvent): void {
    if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey || !a.hasGame()) return;
    const key = e.key;
    if (key === 'u' || key === 'U') return a.undo();
    if (key === 'h' || key === 'H') return a.hint();
    if (!a.humanTurn()) return;
    const legal = a.moverPits().filter((q) => q.legal);
    if (/^\d$/.test(key)) {
      e.preventDefault();
      typed += key;
      clearTimeout(typedTimer);
      const exact = legal.find((q) => pitNumber(q.name) === typed);
      const longer = a.moverPits().some((q) => pitNumber(q.name) !== typed && pitNumber(q.name).startsWith(typed));
      if (exact !== undefined && !longer) {
        typed = '';
        return a.play(exact.index);
      }
      if (!a.moverPits().some((q) => pitNumber(q.name).startsWith(typed))) {
        typed = '';
        return;
      }
      typedTimer = setTimeout(() => {
        const found = legal.find((q) => pitNumber(q.name) === typed);
        typed = '';
        if (found !== undefined) a.play(found.index);
      }, 700);
      return;
    }
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      e.preventDefault();
      if (legal.length === 0) return;
      const k = legal.findIndex((q) => q.index === a.selected());
      const next = k < 0 ? (key === 'ArrowRight' ? 0 : legal.length - 1) : (k + (key === 'ArrowRight' ? 1 : legal.length - 1)) % legal.length;
      a.select(legal[next]!.index);
      return;
    }
    const selected = a.selected();
    if ((key === 'Enter' || key === ' ') && selected !== undefined && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      a.play(selected);
    }
  }

  return { onKey, dispose: () => clearTimeout(typedTimer) };
}
