/** The dialect conversions: parse, stringify, GFM <-> dialect, HTML. */
export {}
