// The played line as PGN (export format: the seven tag roster, FEN and
// SetUp for a game that starts from a position, movetext wrapped at 80
// columns), with the best play from its last position after it, as
// lichess's analysis exports its main line. No DOM here.
import { parseFen } from './chess.js';

/** A PGN tag value: backslashes and quotes escaped. */
const tag = (name, value) => `[${name} "${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;

/** A comment's tokens (wrapped word by word): braces would end it early. */
const comment = (text) => ['{', ...String(text).replace(/[{}]/g, '').split(/\s+/).filter(Boolean), '}'];

/** The PGN date of `when`: YYYY.MM.DD. */
const pgnDate = (when) => `${when.getFullYear()}.${String(when.getMonth() + 1).padStart(2, '0')}.${String(when.getDate()).padStart(2, '0')}`;

/**
 * PGN of the moves `played` (SAN) from `root` (a FEN), then `best` (SAN,
 * the tablebase's best play from where they end) after the comment
 * `bestNote` (after the played moves, with or without a best line). The
 * result is the mate's where the moves end in one (unless `open`: a mate
 * the 50-move rule comes before), `over` where the position they reach is
 * over by the rules ('1-0', '0-1', '1/2-1/2': a mate or stalemate on the
 * board), else `*` (an analysis, not a finished game). `site` and `when`
 * fill their tags.
 */
export function pgnOf({ root, played = [], best = [], bestNote = '', site = '?', when = new Date(), open = false, over = null }) {
  const pos = parseFen(root);
  const sans = [...played, ...best];
  const last = sans[sans.length - 1] || '';
  // Plies alternate from the root's side: the mating ply's side wins.
  const moverOfLast = (pos.turn === 'white') === (sans.length % 2 === 1) ? 'white' : 'black';
  const result = open ? '*' : last.endsWith('#') ? (moverOfLast === 'white' ? '1-0' : '0-1') : over || '*';
  const tags = [
    tag('Event', 'Syzygy tablebase analysis'),
    tag('Site', site),
    tag('Date', pgnDate(when)),
    tag('Round', '-'),
    tag('White', '?'),
    tag('Black', '?'),
    tag('Result', result),
    tag('FEN', root),
    tag('SetUp', '1'),
  ];
  const tokens = [];
  let number = pos.fullmove;
  let white = pos.turn === 'white';
  // A black move states its number where it opens the text or follows a comment.
  let restate = true;
  sans.forEach((san, i) => {
    if (i === played.length && bestNote) {
      tokens.push(...comment(bestNote));
      restate = true;
    }
    if (white) tokens.push(`${number}.`);
    else if (restate) tokens.push(`${number}...`);
    tokens.push(san);
    restate = false;
    if (!white) number++;
    white = !white;
  });
  // A note with no best line after it closes the moves.
  if (!best.length && bestNote) tokens.push(...comment(bestNote));
  tokens.push(result);
  return `${tags.join('\n')}\n\n${wrap(tokens, 80)}\n`;
}

/** Tokens joined by spaces into lines of at most `width` (a longer token alone). */
function wrap(tokens, width) {
  const lines = [];
  let line = '';
  for (const t of tokens) {
    if (line && line.length + 1 + t.length > width) {
      lines.push(line);
      line = t;
    } else line = line ? `${line} ${t}` : t;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
