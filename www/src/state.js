// The board's state value: the played line of positions, a cursor into it,
// the editing flag, the tablebase handle and answers cached per FEN. Plain
// functions over that value; no DOM here.

export const DEFAULT_FEN = '4k3/8/8/8/8/8/8/4K2R w - - 0 1';
const RESULT_CACHE = 400;

/** A fresh state showing `fen`. */
export function createState(fen = DEFAULT_FEN) {
  return {
    line: [{ fen }], // [{fen, uci?, san?}], line[0] is the root
    ply: 0,
    editing: false,
    editId: null, // the editor's opening, named in its history entries
    editOpened: null, // {fen, id} of the editor's opening while its entry is the one shown: closing it unchanged takes that entry back
    leavingEditor: 0, // timer while the editor's unchanged close goes Back: its toggle waits for it
    token: 0, // bumped by every new position: answers for older ones are dropped
    handle: null,
    handlePromise: null,
    handleFailed: false, // the module or tables could not be reached: the next position tries again
    loading: null, // the FEN whose answer is awaited, if any
    mating: null, // {fen} of the solve making mate distances in the browser (mate.js)
    result: null, // probe result of the current position, once known
    results: new Map(), // fen -> probe result | {error}
    mainlines: new Map(), // fen -> tb.mainline(fen, { toEnd: true }): the best line shown
    zeroingLines: new Map(), // fen -> tb.mainline(fen): to the first zeroing move, to word a DTZ above 100
    reached: new Map(), // fen -> the moves of a position the tables do not answer, valued where they leave its material (reached.js)
    legal: [],
    legalFen: null,
    fenDirty: false, // the FEN box holds an edit not yet submitted
    unsubscribe: null,
    destroyed: false,
    editTimer: 0,
    urlWrite: null, // a held key's address write, waiting for the key to rest (app.js show)
    clears: 0, // "Clear cache" runs so far: a save that saw one come meanwhile was not kept (cache-actions.js)
  };
}

/** FEN of the position on the board. */
export const currentFen = (s) => s.line[s.ply].fen;

/** Replaces the line by a single root position. */
export function setLine(s, fen) {
  s.line = [{ fen }];
  s.ply = 0;
}

/** Moves the cursor (clamped); true when it moved. */
export function moveCursor(s, ply) {
  const next = Math.max(0, Math.min(s.line.length - 1, ply));
  if (next === s.ply) return false;
  s.ply = next;
  return true;
}

/** Plays one move after the cursor: follows the line when it already holds that move, else cuts it there. */
export function pushMove(s, entry) {
  const next = s.line[s.ply + 1];
  if (next && next.uci === entry.uci) {
    s.ply++;
    return;
  }
  s.line = s.line.slice(0, s.ply + 1);
  s.line.push(entry);
  s.ply++;
}

/** Replaces everything after the cursor by `entries` and moves to the last one. */
export function pushLine(s, entries) {
  s.line = s.line.slice(0, s.ply + 1).concat(entries);
  s.ply = s.line.length - 1;
}

/** Inserts into a Map used as a small LRU cache. */
export function remember(map, key, value) {
  map.delete(key);
  map.set(key, value);
  if (map.size > RESULT_CACHE) map.delete(map.keys().next().value);
}
