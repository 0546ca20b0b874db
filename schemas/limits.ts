// Every length and count bound of the contract, where the server enforces it: requests are refused
// past them (400), and results are parsed with them. Each is far above what a legitimate client or
// the service's own data comes near (docs/api.md). Constants only, so that any schema
// may import them without carrying another's.

/** Catalog fields (schemas/catalog.ts refuses a catalog past them; project results repeat them). */
export const MAX_NAME_CHARS = 100
export const MAX_SYMBOL_CHARS = 20
export const MAX_INDUSTRY_CHARS = 100
export const MAX_DESCRIPTION_CHARS = 5000
export const MAX_LABEL_CHARS = 50
export const MAX_LABELS = 50
/** An http(s) link of the catalog: browsers and sitemaps stop at about 2,000 characters. */
export const MAX_LINK_CHARS = 2048
export const MAX_DECIMALS = 36

/** The most items a page of the token list or of the trades holds (`limit`). */
export const MAX_PAGE_SIZE = 100

/** DECISIONS §7.2: a route has up to 3 hops, so 4 tokens (MAX_HOPS, lib/routing/paths/enumeratePaths.ts). */
export const MAX_PATH_TOKENS = 4

/** A reset, an approval and a swap: the most a prepare route answers, and a submit takes. */
export const MAX_SUBMITTED_TRANSACTIONS = 3
/**
 * Hex digits of one signed transaction, so of the data it holds: the largest swap the service
 * builds (4 routes of 3 V3 hops, each hop its own call) is about 9,000 with its signature
 * (tests/unit/lib/chain/swapRouterCall.test.ts).
 */
export const MAX_SIGNED_HEX_DIGITS = 10_240

/** A phrase as typed: 24 words of up to 8 letters are 215 characters. */
export const MAX_MNEMONIC_CHARS = 1000
/** A private key as typed: 64 hex digits, `0x`, whitespace around. */
export const MAX_PRIVATE_KEY_CHARS = 128

/** Our JWTs are under 500 characters (nine short claims, HS256). */
export const MAX_TOKEN_CHARS = 2048
/** The EIP-4361 message: about 500 characters besides the configured domain and URI. */
export const MAX_SIGN_IN_MESSAGE_CHARS = 4096
/** A prepared transaction's description: amounts, symbols or addresses, under 400 characters. */
export const MAX_DESCRIPTION_LINE_CHARS = 500
