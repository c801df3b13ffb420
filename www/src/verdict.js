// Turns probe results into words. Pure functions: no DOM.
//
// Conventions of the wasm package (lichess API style):
// - a position's wdl / dtz / category are from the side to move's view;
// - a move's values are those of the position AFTER the move, from the view of
//   the side to move THERE, so a move whose category is 'loss' wins for the mover.

export const sideName = (color) => (color === 'black' ? 'Black' : 'White');
export const otherColor = (color) => (color === 'black' ? 'white' : 'black');

const FLIP = {
  win: 'loss',
  'maybe-win': 'maybe-loss',
  'cursed-win': 'blessed-loss',
  draw: 'draw',
  'blessed-loss': 'cursed-win',
  'maybe-loss': 'maybe-win',
  loss: 'win',
};

/** Category of a position from the other side's view. */
export const flipCategory = (category) => FLIP[category];

/** Category name from a raw wdl (-2..2), the halfmove clock ignored. */
export function categoryOfWdl(wdl) {
  return { 2: 'win', 1: 'cursed-win', 0: 'draw', '-1': 'blessed-loss', '-2': 'loss' }[wdl];
}

export const plies = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;
const remain = (n) => (n === 1 ? 'remains' : 'remain');

/**
 * Who wins a position of this category with `turn` to move, once the 50-move
 * rule is applied: 'white' | 'black' | 'draw' | 'unclear'.
 */
export function outcomeOf(category, turn) {
  if (category === 'win') return turn;
  if (category === 'loss') return otherColor(turn);
  if (category === 'maybe-win' || category === 'maybe-loss') return 'unclear';
  if (category) return 'draw';
  return 'unclear';
}

/**
 * The verdict shown for a probe result:
 * { category, outcome, tone, headline, tag, summary, dtz: {label, text, pending?} | null, dtm, notes: [], pending }
 * pending: the result is an outcome (r.dtz null: the WDL alone), its DTZ still on its way.
 * tone is 'white' | 'black' (that side wins), 'draw', 'cursed' (cursed or blessed) or 'unclear'.
 * dtm is the result's distance to mate in plies when known (r.dtm), else null.
 * context.zeroing: plies to the next capture or pawn move along the best line,
 * when known; it tells the two meanings of a DTZ above 100 apart.
 * context.missing: the error that ended the probe after `r` was shown.
 */
export function describe(r, context = {}) {
  const stm = sideName(r.turn);
  const opp = sideName(otherColor(r.turn));
  const h = r.halfmoveClock || 0;
  // The WDL tables' answer alone (the host has no DTZ table: r.code says
  // so): under a running clock a win may or may not come in time.
  // context.missing: the error that ended the probe after this result was
  // shown, its DTZ (if still to come) never to arrive.
  const missing = context.missing || null;
  const unknown = (r.code === 'missing-table' || missing !== null) && (r.dtz === null || r.dtz === undefined);
  const open = unknown && !r.category && Math.abs(r.wdl) === 2 && h > 0;
  const category = r.checkmate ? 'loss' : r.category || (open ? (r.wdl > 0 ? 'maybe-win' : 'maybe-loss') : categoryOfWdl(r.wdl));
  const outcome = outcomeOf(category, r.turn);
  const n = Math.abs(r.dtz || 0);
  const dtm = Number.isInteger(r.dtm) ? r.dtm : null;
  const v = { category, outcome, tone: outcome, headline: '', tag: null, summary: '', dtz: null, dtm, mateHolds: dtm !== null && mateHolds(category, dtm, h), notes: [] };

  if (r.checkmate) {
    return { ...v, headline: `${opp} wins`, tag: 'Checkmate', summary: `${stm} is checkmated.` };
  }
  if (r.stalemate) {
    return { ...v, outcome: 'draw', tone: 'draw', headline: 'Draw', tag: 'Stalemate', summary: `${stm} has no legal move but is not in check.` };
  }
  if (r.insufficientMaterial) {
    return {
      ...v,
      outcome: 'draw',
      tone: 'draw',
      headline: 'Draw',
      tag: 'Insufficient material',
      summary: 'Neither side has enough material left to checkmate.',
    };
  }

  const approx = r.precise === false ? '~' : '';
  // A rounded DTZ of n stands for n or n + 1 plies.
  const span = (k) => (approx ? `${k} or ${k + 1} plies` : plies(k));
  // The outcome stage: the WDL is known, the DTZ is still on its way; or
  // it will not come (unknown).
  const pending = !unknown && (r.dtz === null || r.dtz === undefined);
  v.pending = pending;
  const dtzLine = (text) =>
    unknown
      ? { label: 'DTZ ?', text: missing ? `Not known: ${shortReason(missing)}.` : `Not known: ${shortReason({ code: r.code, message: r.error })}. Who wins comes from its WDL table alone.` }
      : pending
        ? { label: 'DTZ …', text: 'Counting the plies to the next capture, pawn move or mate…', pending: true }
        : { label: `DTZ ${approx}${n}`, text };
  // A decisive wdl that the halfmove clock turns into a (possible) draw.
  const byClock = Math.abs(r.wdl) === 2 && category !== categoryOfWdl(r.wdl);
  switch (category) {
    case 'win':
      v.headline = `${stm} wins`;
      v.summary = `${stm} to move forces checkmate against any defence, in time for the 50-move rule.`;
      v.dtz = dtzLine(`With best play the next capture, pawn move or mate comes in ${span(n)}; it resets the 50-move count.`);
      break;
    case 'loss':
      v.headline = `${opp} wins`;
      v.summary = `${opp} forces checkmate against any defence by ${stm}, in time for the 50-move rule.`;
      v.dtz = dtzLine(`${stm} can hold off the next capture, pawn move or mate for ${span(n)} at most.`);
      break;
    case 'draw':
      v.headline = 'Draw';
      v.summary = 'Neither side can force a win with best play.';
      break;
    case 'cursed-win':
      v.tone = 'cursed';
      v.headline = `Cursed win for ${stm}`;
      v.summary = byClock
        ? h >= 150
          ? `${stm} could force checkmate, but 75 moves have passed without a capture or pawn move: the 75-move rule has drawn the game, with nothing to claim.`
          : `${stm} can force checkmate, but the halfmove clock leaves too little time: ${opp} can claim a draw under the 50-move rule before the next capture or pawn move.`
        : `${stm} can force checkmate, but not before 50 moves pass without a capture or pawn move: ${opp} can claim a draw under the 50-move rule.`;
      break;
    case 'blessed-loss':
      v.tone = 'cursed';
      v.headline = `Blessed loss for ${stm}`;
      v.summary = byClock
        ? h >= 150
          ? `${opp} could force checkmate, but 75 moves have passed without a capture or pawn move: the 75-move rule has drawn the game, with nothing to claim.`
          : `${opp} can force checkmate, but the halfmove clock leaves too little time: ${stm} can claim a draw under the 50-move rule first.`
        : `${opp} can force checkmate, but not within the 50-move rule: ${stm} can claim a draw before it happens.`;
      break;
    case 'maybe-win':
      v.headline = `Win for ${stm} or 50-move draw`;
      v.summary = open
        ? `${stm} can force checkmate; whether it comes before the 50-move rule, with the halfmove clock at ${h}, is not known without the DTZ.`
        : `${stm} can force checkmate; whether it comes before the 50-move rule is too close to tell, because this DTZ may be off by one.`;
      break;
    case 'maybe-loss':
      v.headline = `Win for ${opp} or 50-move draw`;
      v.summary = open
        ? `${opp} can force checkmate; whether it comes before the 50-move rule, with the halfmove clock at ${h}, is not known without the DTZ.`
        : `${opp} can force checkmate; whether it comes before the 50-move rule is too close to tell, because this DTZ may be off by one.`;
      break;
    default:
      v.headline = 'Unknown';
      v.summary = 'The tables gave no answer for this position.';
  }

  // Cursed or clock-limited results: explain the DTZ against the 100-ply limit.
  const rawWdl = r.wdl;
  const winner = rawWdl > 0 ? stm : opp;
  if (['cursed-win', 'blessed-loss', 'maybe-win', 'maybe-loss'].includes(category) || byClock) {
    if (pending || unknown) v.dtz = dtzLine('');
    else if (n > 100) v.dtz = { label: `DTZ ${approx}${n}`, text: beyond100(n, winner, context.zeroing, h) };
    else if (n > 0) v.dtz = { label: `DTZ ${approx}${n}`, text: `${winner} needs ${span(n)} to reach the next capture, pawn move or mate.` };
  }

  // The halfmove clock, only where it changes or nearly changes the result.
  if (!unknown && h > 0 && Math.abs(rawWdl) === 2) {
    const left = Math.max(0, 100 - h);
    if (category === categoryOfWdl(rawWdl)) {
      if (n > left) {
        // A clock of 100 or more with an exact DTZ of 1 (the README's categories).
        v.notes.push(`The halfmove clock stands at ${h}, but only the side to move may claim the 50-move draw: ${stm} mates or makes its winning capture or pawn move now.`);
      } else if (rawWdl < 0 && n === 1 && r.precise !== false && left - n <= 10) {
        v.notes.push(`The halfmove clock stands at ${h}, but every move ${stm} has is a capture or pawn move, which resets it.`);
      } else if (left - n <= 10) {
        v.notes.push(`The halfmove clock stands at ${h}: ${plies(left)} ${remain(left)} before the 50-move rule, just enough for the ${span(n)} ${winner} needs.`);
      }
    } else if (category === 'maybe-win' || category === 'maybe-loss') {
      v.notes.push(`The halfmove clock stands at ${h}: ${plies(left)} ${remain(left)} before the 50-move rule and ${winner} needs about ${plies(n)}, so it may or may not be enough. With a fresh clock ${winner} would clearly win.`);
    } else if (h >= 150) {
      v.notes.push(`The halfmove clock stands at ${h}: 75 moves without a capture or pawn move draw the game at once. With a fresh clock ${winner} would win.`);
    } else {
      v.notes.push(`The halfmove clock already stands at ${h}: ${winner} needs ${span(n)} before the next capture or pawn move, but only ${plies(left)} ${remain(left)}, so the 50-move rule draws it. With a fresh clock ${winner} would win.`);
    }
  }
  // A rounded DTZ leaves the result open only where DTZ and clock add up
  // to exactly 100: the package then says maybe-win or maybe-loss, whose
  // summary tells why. Beside any other total, both readings agree.
  return v;
}

/**
 * Words for a DTZ above 100 in a cursed win or blessed loss. Such a value is
 * either the distance itself (more than 100 plies to the next zeroing move:
 * the 50-move rule strikes in this phase) or the distance plus 100 (the
 * zeroing move comes in time but leads to a phase that the rule draws).
 * `zeroing`, the length of the best line, tells which; without it both are
 * said. `clock`, the halfmove clock: a zeroing move in time for a fresh
 * count may come too late for the clock as it stands.
 */
export function beyond100(n, winner, zeroing, clock = 0) {
  const phase = zeroPhase(n, zeroing);
  const left = Math.max(0, 100 - clock);
  if (phase === 'later' && zeroing > left) {
    return `The next capture or pawn move comes in ${plies(zeroing)}, but the halfmove clock stands at ${clock}: only ${plies(left)} ${remain(left)}, so the 50-move rule draws this phase first (the phase after it could not be won within 50 moves either: ${sum(n, zeroing)}).`;
  }
  if (phase === 'later') {
    return `The next capture or pawn move comes in ${plies(zeroing)}, in time; it is the phase after it that ${winner} cannot win within 50 moves. The tables write that as ${sum(n, zeroing)}.`;
  }
  if (phase === 'this') {
    const limit = clock > 0 ? `the ${plies(left)} the halfmove clock leaves` : 'the 100 the 50-move rule allows';
    return `${winner} needs ${plies(zeroing)} to reach the next capture or pawn move: more than ${limit}.`;
  }
  return `Either ${plies(n - 100)} to the next capture or pawn move, with the phase after it lost to the 50-move rule (the tables add 100), or ${plies(n)} in this phase; the best line tells which.`;
}

/** A DTZ above 100 as the best line's length plus 100: a sum only where it is one. */
const sum = (n, zeroing) => (zeroing + 100 === n ? `${zeroing} + 100 = ${n}` : `${n} (${zeroing} + 100, rounded)`);

/** 'later' | 'this' | null: which phase a DTZ above 100 blames, given the best line's length. */
export function zeroPhase(n, zeroing) {
  if (!(n > 100) || !Number.isInteger(zeroing) || zeroing < 1) return null;
  return zeroing <= 100 && Math.abs(zeroing - (n - 100)) <= 1 ? 'later' : 'this';
}

/**
 * Whether `dtm` plies to mate (counted without the 50-move rule) are a
 * mate in that many under it, for a position of `category` at `clock`: a
 * win or loss whose mate lands by the clock's 100th ply, or on this very
 * ply (the rule the prober's categories apply to DTZ).
 */
export function mateHolds(category, dtm, clock) {
  const n = Math.abs(dtm);
  return (category === 'win' || category === 'loss') && (n === 1 || n + (clock || 0) <= 100);
}

/** Move groups in display order: key, label, categories (mover's view). */
export const GROUPS = [
  { key: 'win', label: 'Winning', categories: ['win', 'maybe-win'] },
  { key: 'cursed', label: 'Win prevented by the 50-move rule', categories: ['cursed-win'] },
  { key: 'draw', label: 'Drawing', categories: ['draw'] },
  { key: 'blessed', label: 'Loss saved by the 50-move rule', categories: ['blessed-loss'] },
  { key: 'loss', label: 'Losing', categories: ['loss', 'maybe-loss'] },
  { key: 'unknown', label: 'Unknown', categories: [] },
];

/**
 * Describes one move of a probe result from the MOVER's view:
 * { uci, san, category, group, badges: [{text, kind, title}] }.
 */
export function describeMove(m) {
  let category = null;
  if (m.checkmate) category = 'win';
  else if (m.stalemate || m.insufficientMaterial) category = 'draw';
  else if (m.category) category = flipCategory(m.category) || null;
  // The WDL tables' answer alone: a decisive result after a move that
  // leaves the clock running may or may not come in time (the package
  // says null, as here).
  else if (Number.isInteger(m.wdl) && Math.abs(m.wdl) === 2 && m.dtz == null && m.clockAfter > 0) category = m.wdl < 0 ? 'maybe-win' : 'maybe-loss';
  else if (Number.isInteger(m.wdl)) category = flipCategory(categoryOfWdl(m.wdl)) || null;
  const group = (GROUPS.find((g) => g.categories.includes(category)) || GROUPS[GROUPS.length - 1]).key;
  const badges = [];
  if (m.checkmate) badges.push({ text: 'Checkmate', kind: 'mate', title: 'This move checkmates' });
  else if (m.stalemate) badges.push({ text: 'Stalemate', kind: 'info', title: 'This move stalemates: draw' });
  else if (m.insufficientMaterial) badges.push({ text: 'Insufficient material', kind: 'info', title: 'No mating material is left after this move' });
  if (m.zeroing && !m.checkmate) badges.push({ text: 'Zeroing', kind: 'zeroing', title: 'Capture or pawn move: resets the 50-move count' });
  // (The WDL tables' answer alone: said only where the clock already ran
  // before the move; after a fresh one every quiet move would carry it.)
  const wdlOnly = m.dtz == null && !m.category;
  if ((category === 'maybe-win' || category === 'maybe-loss') && !(wdlOnly && m.clockAfter <= 1))
    badges.push({ text: '50-move?', kind: 'cursed', title: wdlOnly ? 'Whether this comes before the 50-move rule takes the DTZ table, which the host does not have' : 'Too close to the 50-move limit to tell' });
  // The position after this move needs a table the server does not have:
  // with its WDL (only a DTZ table missing), the DTZ alone is unknown.
  if (m.error && Number.isInteger(m.wdl)) badges.push({ text: 'DTZ ?', kind: 'info', title: `DTZ not known: ${shortReason({ code: m.code, message: m.error })}` });
  else if (m.error) badges.push({ text: 'No table', kind: 'info', title: m.error });
  // Plies to mate after the move: the mover mates (dtm < 0 there) or is
  // mated, in moves as players count them; where the 50-move rule comes
  // first (or may, at the clock after the move), the plies without it.
  if (!m.checkmate && Number.isInteger(m.dtm) && m.dtm !== 0) {
    const n = Math.abs(m.dtm) + 1;
    if (mateHolds(category, m.dtm, m.clockAfter)) {
      badges.push({ text: `${m.dtm < 0 ? 'Mate' : 'Mated'} in ${Math.ceil(n / 2)}`, kind: 'dtm', title: `Distance to mate after this move: ${plies(Math.abs(m.dtm))} (DTM ${Math.abs(m.dtm)})` });
    } else {
      badges.push({ text: `DTM ${n}`, kind: 'dtm', title: `${plies(n)} to ${m.dtm < 0 ? 'mate' : 'be mated'} with this move if the 50-move rule did not apply; under it the game ${category === 'win' || category === 'loss' ? 'may take longer' : 'is drawn first'}` });
    }
  }
  if (!m.checkmate && Number.isInteger(m.dtz) && m.dtz !== 0) {
    const approx = m.precise === false ? '~' : '';
    const n = Math.abs(m.dtz);
    const cursed = category === 'cursed-win' || category === 'blessed-loss';
    badges.push({
      text: `DTZ ${approx}${n}`,
      kind: 'dtz',
      title: cursed && n > 100 ? moveBeyond100(n, m.zeroingPlies, m.clockAfter) : `Distance to zeroing after this move: ${plies(n)}${m.precise === false ? ' (may be off by one)' : ''}`,
    });
  }
  return { uci: m.uci, san: m.san, category, group, badges, dtm: Number.isInteger(m.dtm) ? m.dtm : null };
}

/**
 * Tooltip of a move leading to a DTZ above 100; `zeroing` is the best line's
 * length after the move, when known, and `clock` the halfmove clock there.
 */
export function moveBeyond100(n, zeroing, clock = 0) {
  const phase = zeroPhase(n, zeroing);
  const left = Math.max(0, 100 - clock);
  if (phase === 'later' && zeroing > left) return `After this move the next capture or pawn move comes in ${plies(zeroing)}, but the halfmove clock leaves only ${plies(left)}: the 50-move rule draws this phase first (DTZ ${n}: ${zeroing} + 100${zeroing + 100 === n ? '' : ', rounded'}).`;
  if (phase === 'later') return `After this move the next capture or pawn move comes in ${plies(zeroing)}; the phase after it is drawn by the 50-move rule (DTZ ${n}${zeroing + 100 === n ? ` = ${zeroing} + 100` : `: ${zeroing} + 100, rounded`}).`;
  if (phase === 'this') return `After this move the next capture or pawn move is ${plies(zeroing)} away: too far for the 50-move rule.`;
  return `After this move: ${plies(n - 100)} to the next capture or pawn move if a later phase is drawn by the 50-move rule (the tables add 100), else ${plies(n)}.`;
}

/** Groups probe moves (already ranked best first) for display; empty groups are dropped. */
export function groupMoves(moves) {
  const described = moves.map(describeMove);
  return GROUPS.map((g) => ({ ...g, moves: described.filter((m) => m.group === g.key) })).filter((g) => g.moves.length);
}

/**
 * A failure in a few words for a line of text (the best line, a save for
 * offline): what the user can act on, not the fetch's own text.
 */
export function shortReason(err) {
  const code = err && err.code;
  const message = (err && err.message) || String(err);
  // A host's answer the runtime cannot use (compressed, no Range, a
  // refusal) or a file that changed: its own words say what to do.
  if (code === 'network' && !err.fatal && !/changed while/.test(message)) {
    return typeof navigator !== 'undefined' && navigator.onLine === false ? 'this device is offline' : 'the table server could not be reached';
  }
  if (code === 'missing-table') {
    const file = /([A-Za-z]+v[A-Za-z]+\.rtb[wz])/.exec(message);
    return `the host has no ${file ? file[1] : 'table it needs'}`;
  }
  if (code === 'cleared') return 'the cache was cleared meanwhile';
  if (code === 'corrupt-table') return 'a table file did not decode (truncated or of another version)';
  // As written ("IndexedDB is...", "KRvKP.rtbz (...)": names keep their capitals).
  return message;
}

/**
 * Plain-words message for an error of the wasm package or the network.
 * context: { pieces, material, offline (the browser says it is offline),
 * coverage ({maxPieces, materials} of the configured host, when known; materials null
 * where not counted), kingsAdjacent, own (the position's own material, where `material`
 * names a missing table), editing (the editor is open) }.
 */
export function describeError(err, context = {}) {
  const code = err && err.code;
  let message = (err && err.message) || String(err);
  const titles = {
    'invalid-fen': 'Invalid FEN',
    'illegal-position': 'Illegal position',
    castling: 'Castling rights',
    'too-many-pieces': 'Too many pieces',
    'missing-table': 'Table not available',
    network: 'Network problem',
    'corrupt-table': 'Corrupt table',
    module: 'The board could not load',
    generate: 'Generating the table failed',
    options: 'Table address not valid',
    closed: 'The decoder stopped',
  };
  const hints = {
    'invalid-fen': 'Check the FEN: 8 ranks, side to move, castling, en passant, clocks.',
    'illegal-position': 'This position cannot arise in a game. Fix it in the editor.',
    castling: 'Syzygy tables only hold positions without castling rights. Remove them (use "-" in the FEN) to probe.',
    'too-many-pieces': `The tables here cover positions with few pieces${context.pieces ? ` (this one has ${context.pieces})` : ''}. Remove pieces in the editor.`,
    'missing-table': 'The server has no table for this material. Moves can still be played.',
    network: 'The table server could not be reached. Positions seen before still work offline.',
    'corrupt-table': 'A table file did not decode as expected; it may be truncated or from another version.',
    module: 'Its decoder (a WebAssembly module) did not download: no moves or results until it does. It is tried again with the next position, when the device comes back online, or with Retry.',
    generate: 'This device could not make the table (it may be short of memory). Coming back to the position tries again.',
    closed: 'It failed, perhaps short of memory. The next position starts a new one; if that fails too, reload the page.',
    options: 'Each address in the tables setting (the tables attribute, or ?tables= in the link) must be a URL, such as ./tables/ or https://tables.example.org/syzygy/.',
  };
  let title = titles[code] || 'Something went wrong';
  let hint = hints[code] || '';
  if (code === 'illegal-position') message = illegalWords(message, context);
  // (In the editor already: the board is where to fix it.)
  if (code === 'illegal-position' && context.editing) hint = 'This position cannot arise in a game. Move, add or remove pieces to fix it.';
  // The table a capture or promotion reaches, not the position's own.
  if (code === 'missing-table' && context.material && context.own && context.material !== context.own) {
    hint = `The server has no ${context.material} table, which a capture or promotion from here reaches. Moves can still be played.`;
  }
  if (code === 'network' && context.offline) {
    title = 'Offline';
    message = context.material ? `This device is offline, and the ${context.material} table has not been saved on it.` : 'This device is offline.';
    hint = `Positions seen before and materials saved with "Save for offline" still work. Reconnect to probe ${context.material || 'this position'}.`;
  }
  const cov = context.coverage;
  if ((code === 'missing-table' || code === 'too-many-pieces') && cov && cov.maxPieces) {
    const has = cov.materials;
    if (context.pieces > cov.maxPieces) {
      message = `These tables cover up to ${cov.maxPieces} pieces; this position has ${context.pieces}.`;
      hint = 'Moves can still be played: capture down to a covered material, or remove pieces in the editor.';
    } else if (code === 'missing-table') {
      // (A count where Browse scanned the host; hostReach counts none.)
      const offers = has ? `offers ${has} material${has === 1 ? '' : 's'} with` : 'has tables of';
      message = `The host ${offers} up to ${cov.maxPieces} pieces, but not ${context.material || 'this one'}.`;
      hint = 'Moves can still be played. "Browse by material" lists what is here.';
    }
  }
  return { code: code || 'error', title, message: message.charAt(0).toUpperCase() + message.slice(1), hint };
}

const ILLEGAL_WORDS = {
  'empty board': 'The board is empty: each side needs a king.',
  'missing king': 'Each side needs exactly one king, and one is missing.',
  'too many kings': 'Each side needs exactly one king, and there are more.',
  'pawns on backrank': 'A pawn stands on the first or last rank, where pawns cannot be.',
  'invalid castling rights': 'The castling rights do not match the kings and rooks on their squares.',
  'invalid ep square': 'The en passant square does not match a pawn that has just moved two squares.',
  'opposite check': 'The side that has just moved is in check, which no legal move allows.',
  'impossible check': 'These checks cannot come from one legal move.',
  'too much material': 'There are more pieces than a game can have.',
};

/** The package's illegal-position reasons in words players use. */
function illegalWords(message, context) {
  if (context.kingsAdjacent) return 'The kings stand next to each other, which no legal move allows.';
  const bare = message.replace(/^illegal position:\s*/i, '');
  let reasons = bare.split(/,\s*/).map((r) => r.trim().toLowerCase());
  // An empty board misses both kings: said once.
  if (reasons.includes('empty board')) reasons = reasons.filter((r) => r !== 'missing king');
  const words = reasons.map((r) => ILLEGAL_WORDS[r]).filter(Boolean);
  // (The title says "Illegal position" already.)
  return words.length ? words.join(' ') : bare;
}
