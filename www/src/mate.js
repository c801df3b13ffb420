// "Mate in N" beside the host's answer. Syzygy files hold no distance to
// mate; a position of up to 4 pieces answered from them is probed again
// from tables made in this browser (`generate: 'always'`), and their mate
// distances join the host's answer (its values and ranking stay). A
// 3-piece table takes 0.1-0.2 s to make, so those come by themselves; a
// 4-piece one takes seconds with its sub-tables (KQvKN 3 s, KRvKP 13-15 s,
// KQPvK 26-28 s on a 2-core desktop), so the visitor asks once, and from then on they come by
// themselves as well (the choice kept in localStorage, the tables in
// IndexedDB). Takes the app context (see app.js).
import { h } from './dom.js';
import { materialKey, moveNumber, pieceCount } from './chess.js';
import { exactByMate } from './exact-dtz.js';
import { giveaway, MADE_HERE } from './giveaway.js';
import { safeMaterial } from './materials.js';
import { remember } from './state.js';
import { asError } from './tablebase.js';
import { shortReason } from './verdict.js';

/** Up to this many pieces, mate distances come unasked. */
const UNASKED = 3;
const CHOICE = 'syzygy-web-mate-distances';

let chosen = null;
/** Whether the visitor asked for mate distances (on this board or an earlier visit). */
function asked() {
  if (chosen === null) {
    try {
      chosen = localStorage.getItem(CHOICE) === 'on';
    } catch {
      chosen = false;
    }
  }
  return chosen;
}

function ask() {
  chosen = true;
  try {
    localStorage.setItem(CHOICE, 'on');
  } catch {
    /* kept for this page only */
  }
}

/** Whether `r`, the answer shown for `fen`, lacks mate distances the browser can add. */
export function wantsMate(r, fen) {
  if (!r || r.error || Number.isInteger(r.dtm)) return false;
  // Over already, or no move to rank: nothing a mate distance adds.
  if (r.checkmate || r.stalemate || r.insufficientMaterial || !(r.moves && r.moves.length)) return false;
  try {
    return pieceCount(fen) <= MADE_HERE;
  } catch {
    return false;
  }
}

/** Materials (as generations name them) being made for mate distances: tables their host has (see `hosted`). */
const solving = new Map();

/**
 * Whether a generation for `target` (a material name) makes tables a host
 * has, for mate distances: not what a position of that material waits
 * for (the host answers it), so not "Solving ..." on its card.
 */
export const hosted = (target) => solving.has(target);

/** Counts a generation of `material` in `solving` until the returned function is called. */
function solveOf(material) {
  solving.set(material, (solving.get(material) || 0) + 1);
  return () => (solving.get(material) > 1 ? solving.set(material, solving.get(material) - 1) : solving.delete(material));
}

/**
 * Adds mate distances to the answer `r` shown for `fen` where it lacks
 * them, unasked or once asked: `to.show(answer)` renders the answer with
 * them if the board is still on that position; `to.closed(handle, err)`
 * where the Tablebase closed under it (the board connects afresh).
 */
export function findMate(ctx, fen, token, r, to) {
  const { s, view } = ctx;
  if (!s.handle || !wantsMate(r, fen)) return;
  if (pieceCount(fen) <= UNASKED || asked()) {
    solve(ctx, fen, token, r, to);
    return;
  }
  // A draw has no mate to find: not offered there (its losing moves get
  // their mate distances once asked elsewhere).
  if (r.wdl === 0) return;
  const hint = 'Solves its tables in your browser, once: seconds, up to half a minute with a pawn. They are kept, and this is asked no more.';
  const button = h(
    'button.sb-btn.sb-mate-ask',
    {
      type: 'button',
      // (The compact board shows the button alone.)
      title: hint,
      onclick: () => {
        // (A card left for another position: its own asks.)
        if (token !== s.token || s.destroyed) return;
        ask();
        view.verdict.mating('Mate in …: solving in this browser.');
        solve(ctx, fen, token, r, to);
      },
    },
    'Find mate in N',
  );
  view.verdict.mating(button, h('span.sb-mate-hint', ` ${hint}`));
}

/** The mate distances of `fen` from generated tables, joined to `r` (see findMate). */
async function solve(ctx, fen, token, r, to) {
  const { s, view } = ctx;
  const handle = s.handle;
  // (Connecting afresh since the ask was shown: the next visit asks.)
  if (!handle) return;
  const here = () => token === s.token && !s.destroyed;
  // This solve's mark: another of the same position (left and come back
  // to) is not unmarked when this one ends.
  const mine = { fen };
  s.mating = mine;
  const unmark = solveOf(safeMaterial(fen));
  // Said only if it takes a while: tables kept from an earlier visit answer
  // in milliseconds, and the line would flash.
  const slow = setTimeout(() => here() && s.mating === mine && view.verdict.mating('Mate in …: solving in this browser.'), 300);
  let made;
  try {
    made = await handle.tb.probe(fen, { generate: 'always' });
  } catch (raw) {
    const err = asError(raw);
    // A closed Tablebase (its module failed): the board connects afresh,
    // and the next visit asks again.
    if (err.code === 'closed') to.closed(handle, err);
    if (here()) view.verdict.mating(err.code === 'closed' ? null : `Mate distance unavailable: ${shortReason(err)}.`);
    return;
  } finally {
    clearTimeout(slow);
    if (s.mating === mine) s.mating = null;
    unmark();
  }
  const answer = withMate(r, made);
  // Answers of tables replaced meanwhile (setTables) are not kept for the new ones.
  if (!answer || handle !== s.handle) {
    if (here()) view.verdict.mating(null);
    return;
  }
  remember(s.results, fen, answer);
  // The host's line kept for it goes: the line to mate replaces it.
  s.mainlines.delete(fen);
  if (!here()) return;
  view.verdict.mating(null);
  to.show(answer);
}

/**
 * The host's answer with the generated one's mate distances; null where
 * the two disagree on who wins. Its moves keep the host's ranking by
 * outcome and category, and within each of those take the generated
 * answer's order, which ranks by mate distance (fastest mate first,
 * longest resistance first): the best move shown is the best line's first.
 */
export function withMate(host, made) {
  if (!made || made.wdl !== host.wdl) return null;
  const dtm = new Map((made.moves || []).map((m) => [m.uci, m.dtm]));
  const moves = host.moves.map((m) => exactByMate({ ...m, dtm: Number.isInteger(dtm.get(m.uci)) ? dtm.get(m.uci) : null }));
  return exactByMate({ ...host, dtm: made.dtm, moves: mateOrder(moves, made.moves || []) });
}

/**
 * `moves` (ranked by the host) reordered within each run of moves of one
 * outcome and category (an errored move a run of its own) into `ranked`'s
 * order; moves `ranked` lacks stay last in their run, in the host's order.
 */
function mateOrder(moves, ranked) {
  const at = new Map(ranked.map((m, i) => [m.uci, i]));
  const same = (a, b) => !a.error && !b.error && a.wdl === b.wdl && a.category === b.category;
  const run = [];
  moves.forEach((m, i) => run.push(i > 0 && same(moves[i - 1], m) ? run[i - 1] : i));
  const where = (m) => (at.has(m.uci) ? at.get(m.uci) : Infinity);
  return moves
    .map((m, i) => ({ m, i }))
    .sort((a, b) => run[a.i] - run[b.i] || where(a.m) - where(b.m) || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The host's best line from a position the browser makes no tables for,
 * its end replaced from the first position it does (3 pieces, or 4 once
 * the visitor asked for mate distances) by the line to mate from those
 * tables. The host's line chains DTZ: past a capture into a small ending
 * it plays for the next capture or pawn move (a queen given away to reset
 * the count, say), where a player plays for mate. Resolves the joined
 * line, or null where there is nothing to join or the tables fail.
 */
export async function lineToMate(ctx, line) {
  return joinToMate(ctx, line, asked() ? MADE_HERE : UNASKED);
}

async function joinToMate(ctx, line, reach) {
  const { s } = ctx;
  const handle = s.handle;
  // (A position within reach itself gets the whole line to mate from solve.)
  if (pieceCount(line.fen) <= reach) return null;
  const at = line.moves.findIndex((m) => {
    try {
      return pieceCount(m.fen) <= reach;
    } catch {
      return false;
    }
  });
  if (!handle || at < 0 || at === line.moves.length - 1) return null;
  const from = line.moves[at];
  // Made for a line, not for a position waiting on them: no "Solving ..." card.
  const unmark = solveOf(safeMaterial(from.fen));
  let tail;
  try {
    tail = await handle.tb.mainline(from.fen, { toEnd: true, generate: 'always' });
  } catch {
    return null;
  } finally {
    unmark();
  }
  // (Tables replaced meanwhile; a disagreement on who wins keeps the host's.)
  if (handle !== s.handle || tail.wdl !== from.wdl || !tail.moves.length) return null;
  return { ...line, moves: [...line.moves.slice(0, at + 1), ...tail.moves] };
}

/**
 * For a best line that gives a piece away (see giveaway), a note under it.
 * Where the visitor asked for mate distances, its 4-piece ending is played
 * out to mate at once (`shown(joined)`; the note says so if that takes a
 * while); else the note says what the line does and asks to (once asked,
 * 4-piece endings get their mate distances unasked, as after "Find mate
 * in N"), or, for a 4-piece position, points to "Find mate in N", whose
 * solve brings the line to mate. Null where it gives nothing away, or for
 * a 4-piece position once asked (its solve replaces the line). Nothing is
 * shown once the Tablebase was replaced meanwhile.
 */
export function giveawayNote(ctx, line, shown) {
  const { s } = ctx;
  const g = giveaway(line);
  if (!g) return null;
  const own = pieceCount(line.fen) <= MADE_HERE;
  if (own && asked()) return null;
  const handle = s.handle;
  const note = h('p.sb-line-note');
  const join = async () => {
    const joined = await joinToMate(ctx, line, MADE_HERE);
    if (joined && s.handle === handle) shown(joined);
    else note.replaceChildren('Line to mate unavailable.');
    return joined;
  };
  if (asked()) {
    // (Said only if it takes a while: kept tables answer in milliseconds.)
    note.hidden = true;
    const slow = setTimeout(() => {
      note.hidden = false;
      note.replaceChildren(`Playing ${g.material} out to mate: solving its tables in this browser…`);
    }, 300);
    join().finally(() => clearTimeout(slow));
    return note;
  }
  const move = line.moves[g.at];
  const before = g.at === 0 ? line.fen : line.moves[g.at - 1].fen;
  const what = `${moveNumber(before, true)}${move.san} gives up the ${g.piece}: in ${g.material}${blackFirst(before, g.material)} the host's tables play for the next capture (DTZ), not for mate.`;
  if (own) {
    note.append(`${what} "Find mate in N" above plays it out to mate.`);
    return note;
  }
  const hint = `Solves ${g.material} in your browser: a few seconds. Kept, and from then on 4-piece endings get mate distances by themselves.`;
  const button = h(
    'button.sb-btn.sb-mate-ask',
    {
      type: 'button',
      title: hint,
      onclick: () => {
        // (A card left for other tables: its own asks.)
        if (s.handle !== handle || s.destroyed) return;
        ask();
        note.replaceChildren(`Solving ${g.material} in this browser…`);
        join();
      },
    },
    'Play it out to mate',
  );
  note.append(`${what} `, button);
  return note;
}

/**
 * Where Black holds the pieces a material's name lists first (the name is
 * the stronger side's first, whoever has them): " (Black's queen and
 * rook)", so that "KQRvK" is not read as White's; else ''.
 */
function blackFirst(fen, material) {
  const names = { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
  const first = material.split('v')[0];
  try {
    // White-first names, both: White holds the first side unless they differ there.
    if (materialKey(fen).split('v')[0] === first || first.length < 2) return '';
  } catch {
    return '';
  }
  const words = [...first.slice(1)].map((c) => names[c]);
  return ` (Black's ${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0]})`;
}

/** A generation's progress, shown under the verdict of the position waiting for its mate distances. */
export function mateProgress(ctx, fen, p) {
  const { s, view } = ctx;
  if (!s.mating || s.mating.fen !== fen || !madeFor(fen, p.target)) return;
  const pct = Math.round((p.fraction || 0) * 100);
  view.verdict.mating(`Mate in …: solving ${p.material} in this browser (table ${p.index + 1} of ${p.materials.length}), ${pct} %.`);
}

/** Whether a table generated for `target` (a material name) is the one `fen`'s answer reads. */
export const madeFor = (fen, target) => safeMaterial(fen) === target;
