/** The largest article body the scanner converts (bytes): the platform's limit. */
export const maxArticleBytes = 5 * 1048576
