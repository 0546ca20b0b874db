// The document's tags; each route's own description is in its doc file (lib/openapi/routeDoc.ts).

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
  ws: 'Push over the WebSocket API: a ticket to connect with (the messages: docs/websocket.md, docs/asyncapi.yaml).',
  docs: 'This document and its reference page.',
}
