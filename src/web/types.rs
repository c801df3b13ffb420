//! The TypeScript declarations of the package: the option and result
//! shapes that wasm-bindgen cannot derive from the Rust signatures.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of a Tablebase. */
export interface TablebaseOptions {
  /** Base URLs of table folders, searched in order (WDL and DTZ may differ);
   *  may be empty or absent when tables are generated (see `generate`). */
  urls?: string[];
  /** Optional map of file name (e.g. "KQvK.rtbw") to base URL, to skip probing for files. */
  manifest?: Record<string, string>;
  /** Page size in bytes, a power of two (default 4096). */
  pageSize?: number;
  /** In-memory page budget in bytes (default 64 MiB). */
  memoryBudget?: number;
  /** IndexedDB page budget in bytes (default 256 MiB); 0 disables IndexedDB. The cache is the
   *  origin's, shared by its Tablebases (and tabs): a write evicts the least recently used pages of
   *  any of them down to the writer's budget. */
  idbBudget?: number;
  /** Bytes of generated tables kept in memory beyond those the probe at hand reads
   *  (least recently read let go first; IndexedDB keeps them). Default by
   *  `navigator.deviceMemory`: 1 GiB at 8 GB (every 3-4 piece table), 48 MiB a GB below,
   *  192 MiB where the browser does not tell. */
  generatedBudget?: number;
  /** Parallel HTTP requests, fixed (default: learned; 6 over HTTP/1.1, 64 from a host that speaks HTTP/2 or 3, presumed so for https until its answers show). */
  concurrency?: number;
  /** Called whenever network activity changes. */
  onProgress?: (p: Progress) => void;
  /** How far into a file to stream from a server that ignores Range (default 32 MiB). */
  wholeBodyLimit?: number;
  /** Tables generated in the browser (a Web Worker) for positions of up to 4 pieces,
   *  kept in IndexedDB: 'auto' (default) when no URL has the table or none is configured,
   *  'always' for every such position, 'never'. */
  generate?: 'auto' | 'always' | 'never';
  /** Called as tables are generated (a generation continues when its position is left). */
  onGenerate?: (p: GenerateProgress) => void;
  /** Range requests the page started before the module loaded (e.g. the heads of the first
   *  position's tables, fetched while the wasm downloads): `response` answers `bytes=start-(end-1)`
   *  of `url` (a `fetch()` promise). The first read of that file at `start` uses it and asks the
   *  network only for what it lacks; `controller` (optional) aborts it once read. */
  early?: { url: string; start: number; end: number; response: Promise<Response>; controller?: AbortController }[];
}
/** Progress of a generation: `material` of `materials` (dependencies first; index into it). */
export interface GenerateProgress {
  material: string; target: string; materials: string[]; index: number;
  /** Work units of `material` done, of `total`; `fraction` = done / total. */
  done: number; total: number; fraction: number;
  /** Since the generation for this position began; estimated time left (null before an estimate). */
  elapsedMs: number; etaMs: number | null;
}
export interface Progress { requestsInFlight: number; requests: number; bytes: number; rounds: number; }
export type Category = 'win' | 'maybe-win' | 'cursed-win' | 'draw' | 'blessed-loss' | 'maybe-loss' | 'loss';
export interface MoveResult {
  uci: string; san: string; wdl: number; dtz: number; precise: boolean; category: Category;
  /** Plies to mate with best play after the move without the 50-move rule, signed like dtz; null where unknown (Syzygy tables). */
  dtm: number | null;
  zeroing: boolean; checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
}
/** A move whose result needs an absent table: why, instead of the values. Listed last,
 *  unless the absent table is one only its DTZ needs: then it also has its WDL from the
 *  WDL tables (dtz, precise and dtm null; category null where the halfmove clock leaves
 *  it to the DTZ) and is ranked as if its DTZ were the worst its WDL allows: by its
 *  category where the WDL decides it, else after the moves of its WDL, before those of
 *  a worse one. */
export interface MoveError {
  uci: string; san: string; error: string; code: 'missing-table';
  wdl?: number; dtz?: null; precise?: null; category?: Category | null; dtm?: null;
  zeroing: boolean; checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
}
export interface ProbeResult {
  fen: string; wdl: number; dtz: number; precise: boolean; category: Category;
  /** Plies to mate with best play without the 50-move rule, signed like dtz (0 for a draw and for a checkmated side: see checkmate); null where unknown. */
  dtm: number | null;
  checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
  halfmoveClock: number; turn: 'white' | 'black'; moves: (MoveResult | MoveError)[];
}
export interface MainlineStep { uci: string; san: string; fen: string; wdl: number; dtz: number; precise: boolean; zeroing: boolean; dtm: number | null; }
/** Best play: to the next zeroing move from Syzygy tables, to mate from generated ones. */
export interface Mainline { fen: string; wdl: number; dtz: number; precise: boolean; dtm: number | null; moves: MainlineStep[]; }
export interface Stats {
  requests: number; bytes: number; rounds: number; retries: number;
  /** Of `requests`, those answered with several ranges in one multipart body (tables on the page's own origin). */
  multipartRequests: number;
  /** Page reads the decoder's attempts answered from memory (a page read by several attempts counts each time),
   *  and pages brought from IndexedDB and from the network. */
  pagesFromMemory: number; pagesFromIndexedDb: number; pagesFromNetwork: number;
  cacheBytes: number; memoryBytes: number; indexedDb: 'ok' | 'memory-only' | 'opening' | 'closed';
  requestsInFlight: number; identityChanges: number;
  /** IndexedDB writes (and the evictions they make) not yet done: 0 once what was read is stored. */
  writesPending: number;
  /** Answers of a file's version before a change that were asked for before it, dropped and asked for again. */
  staleAnswers: number;
  /** Whether the tables' host was seen to answer many requests at once (HTTP/2 or 3: from Resource
   *  Timing, or from the answers' times where it sends no Timing-Allow-Origin); null before it showed,
   *  and always with a `concurrency` option (nothing is learned then). */
  multiplexed: boolean | null;
  /** What the page measured of its link: bytes a millisecond and the shortest wait for an answer; null until measured. */
  link: { bytesPerMs: number | null; tripMs: number | null };
  /** Tables generated in this session, read back from IndexedDB, and generation time. */
  tablesGenerated: number; tablesFromIndexedDb: number; generateMs: number;
  /** Generated tables the page's core let go beyond `generatedBudget`, and the bytes it holds. */
  tablesLetGo: number; generatedBytes: number;
  /** The last probe or mainline that used the network; null before one did. */
  last: ColdProbe | null;
  /** The last 8 probes and mainlines that used the network, oldest first: a caller finds its own call's there. */
  recent: ColdProbe[];
}
/** What one probe cost on the network, as the page experienced it. */
export interface ColdProbe {
  /** HTTP requests it started, and the bytes they brought. */
  requests: number; bytes: number;
  /** Sequential waves of requests: 1 where all went out at once, one more
   *  for each request in a chain that had to wait for another of its
   *  requests to finish first (the next round, or a free connection). */
  waves: number;
  /** Logical rounds of the analysis (attempts that named missing pages). */
  rounds: number;
  /** Wall time from the call to the answer, to the outcome and to the verdict
   *  (null without onUpdate). */
  elapsedMs: number; outcomeMs: number | null; verdictMs: number | null;
  /** Whose figures: a number new with each call, the call ('probe' or
   *  'mainline') and its FEN, so that a page running several can tell. */
  id: number; method: 'probe' | 'mainline'; fen: string;
  /** Attempts of the decoder (each run on what had arrived) and their main-thread time. */
  attempts: number; attemptMs: number;
}
/** Options of one probe. */
export interface ProbeOptions {
  /** Called with the position's outcome (`stage: 'outcome'`: from its WDL alone,
   *  `dtz`, `precise` and `dtm` null, `result.moves` empty; only where the WDL
   *  decides the category), then its verdict (`stage: 'verdict'`, with DTZ,
   *  `result.moves` empty) as soon as each is known, then with the complete
   *  result (`stage: 'complete'`) as soon as it is known: the promise resolves
   *  with it once its pages are in IndexedDB too. A stage whose successor
   *  came first is skipped. */
  onUpdate?: (update: ProbeUpdate) => void;
  /** This call's `generate`, in place of the Tablebase's: 'always' answers a position
   *  of up to 4 pieces from tables generated in the browser (its mate distances)
   *  where the Tablebase would ask its URLs. */
  generate?: 'auto' | 'always' | 'never';
  /** false: the position's verdict alone (with its DTZ; `moves` empty, no 'complete'
   *  update), without the move list's tables: fewer requests and bytes. */
  moves?: boolean;
}
/** Options of one mainline: `toEnd` goes on through zeroing moves to the end; `generate`
 *  as a probe's (from generated tables the line goes to mate). */
export interface MainlineOptions {
  toEnd?: boolean;
  generate?: 'auto' | 'always' | 'never';
}
export type ProbeUpdate =
  | { stage: 'outcome'; result: OutcomeResult }
  | { stage: 'verdict' | 'complete'; result: ProbeResult };
/** A position's result from its WDL table alone, before its DTZ (from generated tables,
 *  where the DTZ comes with the WDL, it is a whole ProbeResult with no moves). */
export interface OutcomeResult extends Omit<ProbeResult, 'dtz' | 'precise' | 'dtm'> {
  dtz: number | null; precise: boolean | null; dtm: number | null;
}
/** What the WDL tables alone answer where a DTZ table is missing (a host of WDL tables
 *  alone): `probe` rejects with code `missing-table`, and the error's `result` is this:
 *  every move's WDL, ranked, no DTZ (`category` null where the halfmove clock leaves it
 *  to the DTZ), `error` and `code` as the error's. */
export interface WdlResult extends Omit<OutcomeResult, 'category' | 'moves'> {
  category: Category | null; error: string; code: 'missing-table';
  moves: ((Omit<MoveResult, 'dtz' | 'precise' | 'category'> & { dtz: null; precise: null; category: Category | null }) | MoveError)[];
}
"#;
