/**
 * Who a request was for and how it was labelled (ARCHITECTURE §9 "Attribution", decision 0033),
 * as the dialect layer found them: checked, bounded, and never an identity.
 */
export interface Attribution {
  /** At most 256 characters, no control characters. */
  endUser?: string;
  /** 1 to 16 distinct tags, each 1 to 64 characters of `[A-Za-z0-9_.:/=@+-]`. */
  tags?: string[];
}
