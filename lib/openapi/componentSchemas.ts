import {
  accountCredentialsBodySchema,
  accountLoginResultSchema,
  accountTokenResultSchema,
  loginBodySchema,
} from '../../schemas/account'
import { approvalResultSchema } from '../../schemas/approval'
import { nonceResultSchema, walletLoginBodySchema } from '../../schemas/auth'
import {
  prepareNativeSwapBodySchema,
  prepareSwapBodySchema,
  preparedSwapResultSchema,
  prepareTokenSwapBodySchema,
  preparedTransferResultSchema,
  submitBodySchema,
  submitResultSchema,
  unsignedTransactionSchema,
} from '../../schemas/clientSigning'
import {
  attachNetworksBodySchema,
  listNetworksResultSchema,
  networkBalanceSchema,
  networkSchema,
  walletBalancesResultSchema,
} from '../../schemas/networks'
import {
  dailyHistoryResultSchema,
  monthlyHistoryResultSchema,
  yearlyHistoryResultSchema,
} from '../../schemas/priceHistory'
import { previewSchema } from '../../schemas/preview'
import { projectResultSchema, projectSchema, socialSchema } from '../../schemas/project'
import { emptyResultSchema, sessionTokensSchema } from '../../schemas/session'
import {
  listTokensResultSchema,
  nativeSwapBodySchema,
  quoteResultSchema,
  quoteWithCallResultSchema,
  swapBodySchema,
  swapTokenSchema,
  tokenSwapBodySchema,
  transferBodySchema,
  txResultSchema,
} from '../../schemas/swap'
import { listTradesResultSchema, tradeListItemSchema, tradeRecordSchema } from '../../schemas/trade'
import {
  mnemonicBodySchema,
  mnemonicResultSchema,
  privateKeyBodySchema,
  walletResultSchema,
} from '../../schemas/wallet'
import { watchlistEntrySchema, watchlistResultSchema } from '../../schemas/watchlist'
import { wsTicketResultSchema } from '../../schemas/ws'
import * as z from '../../schemas/zod'

// The names of the OpenAPI document's component schemas: every body and result a route declares,
// and the records they hold. zod's JSON Schema conversion moves a schema registered with an `id`
// into `$defs` and refers to it there (lib/openapi/buildOpenApiDocument.ts moves those to
// `components.schemas`). Named here rather than in schemas/, so that no Lambda bundle carries
// the names and the schemas stay as the handlers use them.

const NAMES: Array<[z.core.$ZodType, string, string]> = [
  // Sessions and wallets.
  [nonceResultSchema, 'SignInNonce', 'A nonce and the EIP-4361 message to sign with it.'],
  [walletLoginBodySchema, 'WalletSignIn', 'The signed sign-in message of a wallet.'],
  [sessionTokensSchema, 'Session', 'The access and refresh tokens of a session.'],
  [accountTokenResultSchema, 'AccountSession', 'An account session: its tokens under `token`.'],
  [
    accountLoginResultSchema,
    'AccountSignInResult',
    'An account session (`token`) and the device token to send with the next login (`device`).',
  ],
  [accountCredentialsBodySchema, 'AccountRegistration', 'A new account name and password.'],
  [
    loginBodySchema,
    'AccountSignIn',
    'An account name and password, and the device token of an earlier login.',
  ],
  [emptyResultSchema, 'Empty', 'Nothing to answer.'],
  [mnemonicResultSchema, 'Mnemonic', '12 BIP39 English words.'],
  [mnemonicBodySchema, 'WalletFromMnemonic', 'A BIP39 phrase and the index of the account.'],
  [privateKeyBodySchema, 'WalletFromKey', 'A private key.'],
  [walletResultSchema, 'Wallet', 'An address and its private key.'],
  // Tokens, quotes, swaps and transfers.
  [swapTokenSchema, 'Token', 'A catalog token the service swaps.'],
  [listTokensResultSchema, 'TokenList', 'A page of the token list.'],
  [quoteResultSchema, 'Quote', 'An exact quote (a network whose quote answers the path only).'],
  [quoteWithCallResultSchema, 'QuoteWithCall', 'An exact quote with the router call that swaps.'],
  [swapBodySchema, 'Swap', 'A swap; either side may be the native coin.'],
  [tokenSwapBodySchema, 'TokenSwap', 'A swap of one token for another (no native coin).'],
  [nativeSwapBodySchema, 'NativeSwap', 'A swap with the native coin on exactly one side.'],
  [transferBodySchema, 'Transfer', 'A transfer of the native coin or a token.'],
  [
    previewSchema,
    'Preview',
    'What the transactions do, simulated in order at the quoted block: balance and allowance changes, gas used, issues.',
  ],
  [
    txResultSchema,
    'TxResult',
    'The hash of the transaction the node accepted, and the preview simulated before sending.',
  ],
  [unsignedTransactionSchema, 'UnsignedTransaction', 'An EIP-1559 transaction to sign.'],
  [
    preparedSwapResultSchema.shape.quote,
    'PreparedQuote',
    'The quote a prepared swap was built from.',
  ],
  [
    prepareSwapBodySchema,
    'PrepareSwap',
    'A swap to prepare (either side may be the native coin), with a signed permit when one was offered.',
  ],
  [
    prepareTokenSwapBodySchema,
    'PrepareTokenSwap',
    'A token swap to prepare (no native coin), with a signed permit when one was offered.',
  ],
  [
    prepareNativeSwapBodySchema,
    'PrepareNativeSwap',
    'A swap with the native coin on one side to prepare, with a signed permit when one was offered.',
  ],
  [
    preparedSwapResultSchema,
    'PreparedSwap',
    'The transactions of a swap, to sign in order; where token0 has EIP-2612, the permit to sign instead of the approvals.',
  ],
  [preparedTransferResultSchema, 'PreparedTransfer', 'The transaction of a transfer, to sign.'],
  [submitBodySchema, 'SignedTransactions', 'Signed raw transactions, in the order prepared.'],
  [submitResultSchema, 'Submitted', 'The hashes of the broadcast transactions.'],
  [
    approvalResultSchema,
    'Approval',
    "Whether the router's allowance is short of the amount, and the exact-amount approvals to sign if so.",
  ],
  // Networks, trades and market data.
  [networkSchema, 'Network', 'A network the service serves.'],
  [listNetworksResultSchema, 'NetworkList', 'Every network.'],
  [attachNetworksBodySchema, 'AttachNetworks', 'Networks to attach to the wallet.'],
  [networkBalanceSchema, 'NetworkBalance', 'The native balance on one network.'],
  [walletBalancesResultSchema, 'WalletBalances', 'The balance on each attached network.'],
  [tradeListItemSchema, 'TradeListItem', 'A trade as the trade list shows it.'],
  [listTradesResultSchema, 'TradeList', 'A page of the wallet’s trades and their total.'],
  [tradeRecordSchema, 'Trade', 'A trade of the wallet.'],
  [watchlistEntrySchema, 'WatchlistEntry', 'A watched project and its price.'],
  [watchlistResultSchema, 'Watchlist', 'The wallet’s watched projects.'],
  [socialSchema, 'SocialLinks', "A project’s links, `''` where the catalog gives none."],
  [projectSchema, 'Project', 'A project and its market metrics (0 where not known yet).'],
  [projectResultSchema, 'ProjectDetails', 'A project under `project`.'],
  [dailyHistoryResultSchema, 'DailyPriceHistory', 'Hourly average prices of the past 24 hours.'],
  [monthlyHistoryResultSchema, 'MonthlyPriceHistory', 'Daily average prices of the past month.'],
  [yearlyHistoryResultSchema, 'YearlyPriceHistory', 'Monthly average prices of the past year.'],
  [wsTicketResultSchema, 'WsTicket', 'A single-use WebSocket ticket, valid 30 s.'],
]

for (const [schema, id, description] of NAMES) {
  // Keeps what schemas/formats.ts `documented` registered on the schema, if anything.
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id, description })
}

/** The component names, in the order the document lists them. */
export const COMPONENT_NAMES = NAMES.map(([, id]) => id)
