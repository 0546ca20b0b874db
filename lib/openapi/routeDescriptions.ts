// What each route does, in a sentence or two for the reader of the document, keyed by the
// function's name in serverless.yml. The generator fails on a route missing here.

export const ROUTE_DESCRIPTIONS: Record<string, string> = {
  listNetworks: 'The networks the service serves, with the ids that attach them to a wallet.',
  getNonce:
    'A sign-in nonce for the address (valid 5 minutes) and the exact EIP-4361 message to sign with it. Asking again does not invalidate an outstanding nonce.',
  loginWallet:
    'Signs a wallet in with its signature of the nonce message: 65 bytes for an account, up to 8 KB for a contract wallet (EIP-1271, ERC-6492). Answers an access and a refresh token.',
  refreshWalletSession:
    'Rotates a wallet session: the refresh token (in the Authorization header) is spent and a new pair is answered. A spent refresh token presented again later revokes its token family.',
  logoutWallet: 'Ends the wallet session of the presented access token.',
  generateMnemonic: 'A new 12-word BIP39 English phrase from a CSPRNG. Nothing is stored.',
  createWallet:
    "The address and private key at m/44'/60'/0'/0/{index} of a phrase. Nothing is stored.",
  recoverWalletFromMnemonic:
    "The address and private key at m/44'/60'/0'/0/{index} of an existing phrase. Nothing is stored.",
  recoverWalletFromKey:
    'The address of a private key, and the key in canonical form. Nothing is stored.',
  registerAccount:
    'Registers a username (unique case-insensitively) and password; the password is kept only as an scrypt hash.',
  loginAccount:
    'Signs an account in with username and password. Answers an access and a refresh token.',
  refreshAccountSession:
    'Rotates an account session: the refresh token (in the Authorization header) is spent and a new pair is answered.',
  logoutAccount: 'Ends the account session of the presented access token.',
  listSwapTokens: 'The tokens of the catalog, one page at a time, sorted by the field asked for.',
  quoteAltchain:
    'An exact quote on altchain: the best router path of up to 3 hops for the amount in, and the minimum out after slippage.',
  quoteEthereum:
    'An exact quote on ethereum, with the router call data that performs the swap to `recipient` (20-minute deadline) and its value.',
  swapNativeAltchain:
    'Swaps between the native coin and a token on altchain, signed with `{key}` (which must control the signed-in wallet), and answers the transaction hash once the node accepted it.',
  swapTokensAltchain:
    "Swaps a token for another on altchain, signed with `{key}`; an approval of the router is sent and mined first when the allowance is short. Answers the swap's transaction hash.",
  swapTokensEthereum:
    "Swaps on ethereum (either side may be the native coin), signed with `{key}`; an approval of the router is sent and mined first when the allowance is short. Answers the swap's transaction hash.",
  transferAltchain:
    'Sends the native coin or a token on altchain, signed with `{key}`, and answers the transaction hash.',
  transferEthereum:
    'Sends the native coin or a token on ethereum, signed with `{key}`, and answers the transaction hash.',
  prepareSwapTokensEthereum:
    'The unsigned transactions (an approval where needed, then the swap) that the ethereum swap route would send, for the wallet to sign itself and submit.',
  prepareSwapTokensAltchain:
    'The unsigned transactions (an approval where needed, then the swap) that the altchain token swap route would send, for the wallet to sign itself and submit.',
  prepareSwapNativeAltchain:
    'The unsigned transactions that the altchain native swap route would send, for the wallet to sign itself and submit.',
  prepareTransferEthereum:
    'The unsigned transaction that the ethereum transfer route would send, for the wallet to sign itself and submit.',
  prepareTransferAltchain:
    'The unsigned transaction that the altchain transfer route would send, for the wallet to sign itself and submit.',
  submitEthereum:
    'Broadcasts, in order, transactions the signed-in wallet signed from a prepare answer on ethereum, after checking each is one the service would have prepared.',
  submitAltchain:
    'Broadcasts, in order, transactions the signed-in wallet signed from a prepare answer on altchain, after checking each is one the service would have prepared.',
  attachWalletNetworks:
    'Attaches networks to the signed-in wallet, so its balance there is reported. Repeats are harmless.',
  getWalletBalances:
    "The signed-in wallet's native balance, in whole coins, on each network attached to it.",
  listWatchlist:
    'The projects the signed-in wallet watches, oldest watch first, with their prices.',
  addToWatchlist: "Adds a project to the signed-in wallet's watchlist.",
  removeFromWatchlist: "Removes a project from the signed-in wallet's watchlist.",
  getProjectDetails: 'A project of the catalog with its market metrics and links.',
  getDailyPriceHistory:
    "Time-weighted average USD prices of a project over the last 24 hours, one point per hour (the current one up to now), from its pools' price accumulators.",
  getMonthlyPriceHistory:
    "Time-weighted average USD prices of a project over the last 30 days, one point per day (the current one up to now), from its pools' price accumulators.",
  getYearlyPriceHistory:
    "Time-weighted average USD prices of a project over the last 12 months, one point per month (the current one up to now), from its pools' price accumulators.",
  listTrades:
    "The signed-in wallet's trades (swaps, transfers, approvals, deposits), one page at a time, with their total count.",
  getTradeByHash:
    "One of the signed-in wallet's trades by transaction hash; a pending trade is settled first when its receipt is known.",
  getTradeById:
    "One of the signed-in wallet's trades by id; a pending trade is settled first when its receipt is known.",
  getOpenApiDocument: 'This document, as the service serves it.',
  getDocsPage: 'Swagger UI over this document.',
  getDocsAsset: 'The script or style sheet of the Swagger UI page, gzipped when accepted.',
}

/** Each tag is a folder of functions/. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  networks: 'The networks served, and the networks and balances of a wallet.',
  auth: 'Wallet sessions: Sign-In with Ethereum, refresh and logout.',
  wallet: 'Phrases and keys, derived on request and never stored.',
  account: 'Username and password accounts and their sessions.',
  swap: "The token list, quotes, and swaps signed by the service with the wallet's key.",
  transfer: "Transfers signed by the service with the wallet's key.",
  clientSigning:
    'Swaps and transfers the wallet signs itself: prepared unsigned, then submitted signed.',
  watchlist: 'The projects a wallet watches.',
  project: 'Project details for signed-in accounts.',
  price: 'Price history of a project.',
  trades: 'The trade history of a wallet.',
  trade: 'One trade of a wallet.',
  docs: 'This document and its reference page.',
}
