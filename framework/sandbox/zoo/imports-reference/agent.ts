// Tries to use the reference solution instead of writing a search.
import alphabeta from '../../../../agents/alphabeta.ts';

export default alphabeta;
