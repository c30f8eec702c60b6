/** Whether a language service answers for the whole project; decided by ProjectReadiness (readiness.ts). */
export type Coverage =
  /** The service answered a question about a file nobody has open: it has loaded the project. */
  | {
      state: 'loaded';
      languageId: string;
      /** When the service was last shown to cover the project (Date.now()): an answer asked before then may predate the load. */
      provedAt: number;
      /** Proven within READINESS.settleMs: its answers may still be slow, and one that comes too late is not a Timeout. */
      settling: boolean;
    }
  /** Every file of the language is open, or the language has no workspace symbol search to test by: its answer is all there is to go on. */
  | { state: 'unverifiable'; why: 'all-open' | 'no-probe' | 'no-search'; reason: string }
  /** Still answering from the open files only after waiting. */
  | { state: 'loading'; languageId: string; waitedMs: number };
