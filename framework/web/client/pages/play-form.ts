/**
 * The Play page's setup form: the rules (any course profile) and their board, the two seats (a
 * human, a reference agent or a submission's folder), an agent's time a move and the pace agent
 * moves are shown at. What it asks the server for a new game (`request`), what it keeps in the
 * address (`params`), and how it is filled from the catalog and the address (`load`).
 */
import type { Catalog, NewGameRequest } from '../../shared/api.ts';
import { h, replace } from '../dom.ts';

const DEFAULTS = { rules: 'kalah', bottom: 'human', top: 'alphabeta:depth=6' } as const;
/** ms between agent moves, by pace; a human's opponent moves at the human pace. */
const PACES: Record<string, { label: string; ms: number; vsHuman: number }> = {
  instant: { label: 'instant', ms: 0, vsHuman: 0 },
  normal: { label: 'normal', ms: 600, vsHuman: 350 },
  slow: { label: 'slow', ms: 1500, vsHuman: 900 },
};

export function playForm(p: URLSearchParams) {
  let catalog: Catalog | undefined;
  const rules = h('select', { id: 'rules', name: 'rules' });
  const summary = h('p', { class: 'hint-text', id: 'rules-summary' });
  const pits = h('input', { id: 'pits', name: 'pits', type: 'number', min: 1, max: 20, inputmode: 'numeric' });
  const seeds = h('input', { id: 'seeds', name: 'seeds', type: 'number', min: 0, max: 1000, inputmode: 'numeric' });
  const bottom = h('input', { id: 'bottom', name: 'bottom', list: 'agent-list', autocomplete: 'off', spellcheck: 'false', value: p.get('bottom') ?? DEFAULTS.bottom });
  const top = h('input', { id: 'top', name: 'top', list: 'agent-list', autocomplete: 'off', spellcheck: 'false', value: p.get('top') ?? DEFAULTS.top });
  const timePerMove = h('input', { id: 'ms', name: 'ms', type: 'number', min: 1, max: 60000, value: p.get('ms') ?? '1000' });
  const agentList = h('datalist', { id: 'agent-list' });
  const agentHelp = h('p', { class: 'hint-text', id: 'agent-help' }, '“human”, a reference agent (alphabeta:depth=6, random, strong:ms=500 …) or a submission’s folder.');
  const pace = h('select', { id: 'pace', 'aria-label': 'pace of agent moves' }, ...Object.entries(PACES).map(([k, v]) => h('option', { value: k }, v.label)));
  pace.value = PACES[p.get('pace') ?? ''] !== undefined ? p.get('pace')! : 'normal';
  const startButton = h('button', { type: 'submit', class: 'primary', id: 'new-game' }, 'New game');
  const form = h(
    'form',
    { class: 'card setup', id: 'setup' },
    h('h2', {}, 'Game'),
    h('label', { for: 'rules' }, 'Rules'),
    rules,
    summary,
    h('div', { class: 'row2' }, h('div', {}, h('label', { for: 'pits' }, 'Pits a side'), pits), h('div', {}, h('label', { for: 'seeds' }, 'Stones a pit'), seeds)),
    h('label', { for: 'bottom' }, 'Bottom (moves first)'),
    bottom,
    h('label', { for: 'top' }, 'Top'),
    top,
    agentList,
    agentHelp,
    h('div', { class: 'row2' }, h('div', {}, h('label', { for: 'ms' }, 'Agent ms a move'), timePerMove), h('div', {}, h('label', { for: 'pace' }, 'Pace'), pace)),
    startButton,
  );

  rules.addEventListener('change', () => {
    const profile = catalog?.profiles.find((q) => q.name === rules.value);
    if (profile === undefined) return;
    pits.value = String(profile.pits);
    seeds.value = String(profile.seeds);
    summary.textContent = profileLine(profile);
  });

  /** The profiles and the agents from the server, then the rules and the board as the address gives them. */
  function load(loaded: Catalog): void {
    catalog = loaded;
    replace(rules, catalog.profiles.map((q) => h('option', { value: q.name }, q.seed !== undefined ? `${q.name} (seed ${q.seed})` : q.name)));
    replace(agentList, ['human', ...catalog.examples].map((spec) => h('option', { value: spec })));
    const wanted = p.get('rules') ?? DEFAULTS.rules;
    const profile = catalog.profiles.find((q) => q.name === wanted) ?? catalog.profiles[0]!;
    rules.value = profile.name;
    summary.textContent = profileLine(profile);
    pits.value = p.get('pits') ?? String(profile.pits);
    seeds.value = p.get('seeds') ?? String(profile.seeds);
    agentHelp.textContent = `“human”, a reference agent (${catalog.examples.slice(0, 4).join(', ')} …) or a submission’s folder under ${catalog.root}.`;
  }

  /** The new game the form asks for: the board and the time only where they differ from the profile's. */
  function request(): NewGameRequest {
    const req: NewGameRequest = { rules: rules.value, bottom: bottom.value.trim(), top: top.value.trim() };
    const profile = catalog?.profiles.find((q) => q.name === rules.value);
    const number = (input: HTMLInputElement) => (input.value.trim() === '' ? undefined : Number(input.value));
    const n = number(pits);
    const s = number(seeds);
    const ms = number(timePerMove);
    if (n !== undefined && n !== profile?.pits) req.pits = n;
    if (s !== undefined && s !== profile?.seeds) req.seeds = s;
    if (ms !== undefined && ms !== 1000) req.timePerMoveMs = ms;
    return req;
  }

  /** The page's address for the game `req` asks for. */
  function params(req: NewGameRequest): Record<string, string | number | undefined> {
    return {
      rules: req.rules,
      pits: req.pits,
      seeds: req.seeds,
      bottom: req.bottom,
      top: req.top,
      ms: req.timePerMoveMs,
      pace: pace.value === 'normal' ? undefined : pace.value,
    };
  }

  /** ms between agent moves at the chosen pace: two agents watched, or an agent against a human. */
  function paceMs(bothAgents: boolean): number {
    const chosen = PACES[pace.value] ?? PACES['normal']!;
    return bothAgents ? chosen.ms : chosen.vsHuman;
  }

  return { form, startButton, load, request, params, paceMs };
}

function profileLine(p: Catalog['profiles'][number]): string {
  const naming: Record<string, string> = {
    bt: 'pits B0, B1, … and T0, T1, …, each row from its owner’s left',
    csci561: 'pits B2, B3, … and A2, A3, …, left to right',
    cups: 'cups 1, 2, … on each side, in sowing order',
  };
  return `${p.summary[0]!.toUpperCase()}${p.summary.slice(1)}. Its board: ${p.pits} pits of ${p.seeds}; ${naming[p.pitNaming] ?? p.pitNaming}.`;
}
