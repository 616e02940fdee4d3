/** A request feature that had to be dropped for the chosen upstream; surfaced as x-rosetta-warnings. */
export interface TranslationWarning {
  /** The request field or feature, e.g. `top_k`. */
  feature: string;
  message: string;
}

/** What every converter returns: the value and what it could not carry over. */
export interface Converted<T> {
  value: T;
  warnings: TranslationWarning[];
}
