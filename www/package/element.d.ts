// Types of the package's element entry: import 'syzygy-web/element' defines <syzygy-board>.
import type { ProbeResult } from './syzygy_web.js';

/**
 * <syzygy-board fen="FEN" tables="URL[,URL...]" view="compact|full" orientation="white|black">
 * A board with the tablebase verdict and ranked moves. The `fen` attribute
 * follows played moves. Events (bubbling): syzygy-position {fen},
 * syzygy-result {fen, result, verdict}, syzygy-error {fen, error, code}.
 */
export declare class SyzygyBoardElement extends HTMLElement {
  /** The position on the board as FEN; setting it loads a new position. */
  fen: string;
  /** The last probe result of the current position, or null. */
  readonly result: ProbeResult | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'syzygy-board': SyzygyBoardElement;
  }
}
