// Entry of syzygy-board.js: styles, then the <syzygy-board> element.
import baseCss from 'chessground-assets/chessground.base.css';
import boardCss from 'chessground-assets/chessground.brown.css';
import piecesCss from 'chessground-assets/chessground.cburnett.css';
import appCss from './styles.css';
import { define, SyzygyBoardElement } from './element.js';

const STYLE_ID = 'syzygy-board-styles';
if (!document.getElementById(STYLE_ID)) {
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = [baseCss, boardCss, piecesCss, appCss].join('\n');
  // First in <head>, so that the embedding page's own rules win on ties.
  document.head.prepend(style);
}

define();

export { SyzygyBoardElement };
