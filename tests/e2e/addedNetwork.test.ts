import '../support/env'
import { type Address, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../functions/schedules/indexDeposits'
import { NATIVE_COIN } from '../../lib/constants'
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../../lib/networkNames'
import { DEFAULT_NETWORKS } from '../../lib/networks'
import { preparedSwapResultSchema, submitResultSchema } from '../../schemas/clientSigning'
import { listNetworksResultSchema, walletBalancesResultSchema } from '../../schemas/networks'
import { emptyResultSchema } from '../../schemas/session'
import { quoteResultSchemaOf, txResultSchema } from '../../schemas/swap'
import { listTradesResultSchema, tradeRecordSchema } from '../../schemas/trade'
import { apiCall, signInOverHttp } from '../support/apiCall'
import { balanceOf, deployment, devnet, fundFromDemoAccount } from '../support/devnetAccounts'
import { okResult } from '../support/envelope'
import { pairedToken } from '../support/networkCases'
import { type PreparedTransaction, signAll } from '../support/signPrepared'

// A network the table holds beyond the interface's two (DECISIONS §9.5: Base, an L2 whose
// devnet has its own chain id, a 0.01 gwei base fee, WETH, Uniswap V3 and a Uniswap V2 DEX), as
// a wallet app meets it over HTTP through serverless offline: nothing of it is written by hand
// but its table entry (serverless.yml declares each operation once, for every network). The suite's stack serves
// every network of the table (tests/support/globalSetup.ts); this file runs on each added one
// whether or not TEST_NETWORKS names it for the rest of the tests keyed by network.

const ADDED = NETWORK_NAMES.filter(
  (network) => !(DEFAULT_NETWORKS as readonly string[]).includes(network),
)

/** Waits for a transaction the route answered with to be mined, and for its success. */
async function mined(network: NetworkName, hash: Hex) {
  const receipt = await devnet(network).waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

describe.each(ADDED)('the %s network over HTTP', (network) => {
  it('answers a quote, a {key} swap, a prepare and submit, a transfer, a deposit and balances', async () => {
    const dex = deployment(network)
    const symbol = pairedToken(network)
    const token = dex.token(symbol)
    const usdc = dex.usdStablecoin
    const chainId = await devnet(network).getChainId()
    const privateKey = generatePrivateKey()
    const account = privateKeyToAccount(privateKey)
    const { address } = account
    const session = await signInOverHttp(account)

    // Its own devnet: its chain id, and cheap gas from its entry's base fee.
    expect(chainId).toBe(NETWORKS[network].devnet.chainId)
    const block = await devnet(network).getBlock({ blockTag: 'latest' })
    expect(block.baseFeePerGas ?? 0n).toBeLessThan(parseEther('0.000000001'))

    // Listed and attached like the interface's networks.
    const { networks } = okResult(await apiCall('GET', '/networks'), listNetworksResultSchema)
    expect(networks.map((listed) => listed.network)).toContain(network)
    okResult(
      await apiCall('POST', '/networks/wallet', {
        token: session,
        body: { networkIds: networks.map(({ id }) => id) },
      }),
      emptyResultSchema,
    )

    // A deposit: coins and a token sent to the wallet, recorded by the deposit indexer (the
    // scheduled function, run here rather than awaited on its minute; a first run places the
    // network's cursor where none is yet).
    await indexDepositsHandler({} as never)
    await fundFromDemoAccount(network, address, {
      native: parseEther('5'),
      tokens: { [symbol]: parseEther('100') },
    })
    let deposits: Array<{ type: string; amount: number }> = []
    for (let run = 0; run < 20 && deposits.length < 2; run += 1) {
      await indexDepositsHandler({} as never)
      const listed = okResult(
        await apiCall('GET', '/trades?limit=10', { token: session }),
        listTradesResultSchema,
      )
      deposits = listed.trades.filter((trade) => trade.type === 'deposit')
    }
    expect(deposits.map((deposit) => deposit.amount).sort((a, b) => a - b)).toEqual([5, 100])

    // Balances: the deposit on this network, nothing elsewhere.
    const balances = okResult(
      await apiCall('GET', '/networks/wallet/balance', { token: session }),
      walletBalancesResultSchema,
    )
    expect(balances.networksBalance).toContainEqual({
      network,
      balance: 5,
      balanceExact: '5',
    })
    expect(balances.networksBalance.filter((entry) => entry.network !== network)).toEqual(
      expect.arrayContaining([expect.objectContaining({ balance: 0 })]),
    )

    // A quote, shaped as its entry says (the router call where its quote carries one).
    const query = new URLSearchParams({
      amount: '40',
      address0: token,
      decimals0: '18',
      address1: usdc,
      decimals1: '6',
    })
    const quote = okResult(
      await apiCall('GET', `/swap/quote/${network}?${query.toString()}`),
      quoteResultSchemaOf(network),
    )
    expect(quote).toMatchObject({ amount: 40, decimal: 6 })
    expect(quote.quote).toBeGreaterThan(0)
    expect('calldata' in quote).toBe(NETWORKS[network].routes.quoteCall)
    expect(quote.to.toLowerCase()).toBe(dex.swapRouter.toLowerCase())

    // A {key} swap, signed by the service: what arrives is at least the quote less slippage.
    const usdcBefore = await balanceOf(network, address, usdc)
    const swapped = okResult(
      await apiCall('POST', `/swap/tokens/${network}/${privateKey}`, {
        token: session,
        body: { amount: '40', address0: token, decimals0: 18, address1: usdc, decimals1: 6 },
      }),
      txResultSchema,
    )
    await mined(network, swapped.txId as Hex)
    const usdcAfterSwap = await balanceOf(network, address, usdc)
    expect(await balanceOf(network, address, token)).toBe(parseEther('60'))
    // Other files trade on this devnet too: within 1 % of the quote.
    expect(usdcAfterSwap - usdcBefore).toBeGreaterThan((BigInt(quote.amountOutMin) * 99n) / 100n)

    // Prepare and submit: the wallet signs what the service prepared, the service broadcasts.
    const prepared = okResult(
      await apiCall('POST', `/prepare/swap/tokens/${network}`, {
        token: session,
        body: { amount: '10', address0: token, decimals0: 18, address1: usdc, decimals1: 6 },
      }),
      preparedSwapResultSchema,
    )
    expect(prepared.transactions.every((transaction) => transaction.chainId === chainId)).toBe(true)
    const submitted = okResult(
      await apiCall('POST', `/submit/${network}`, {
        token: session,
        body: {
          transactions: await signAll(account, prepared.transactions as PreparedTransaction[]),
        },
      }),
      submitResultSchema,
    )
    for (const hash of submitted.txIds) await mined(network, hash as Hex)
    expect(await balanceOf(network, address, token)).toBe(parseEther('50'))

    // A transfer of the native coin.
    const payee: Address = privateKeyToAccount(generatePrivateKey()).address
    const sent = okResult(
      await apiCall('POST', `/transfer/tokens/${network}/${privateKey}`, {
        token: session,
        body: { to: payee, amount: '0.25' },
      }),
      txResultSchema,
    )
    await mined(network, sent.txId as Hex)
    expect(await balanceOf(network, payee, NATIVE_COIN)).toBe(parseEther('0.25'))

    // Every trade recorded: the deposits, the swap, the submitted swap, the transfer (and the
    // approvals before each swap); a lookup settles the transfer from its receipt.
    const byHash = okResult(
      await apiCall('GET', `/trade/hash/${sent.txId}`, { token: session }),
      tradeRecordSchema,
    )
    expect(byHash).toMatchObject({ network, type: 'transfer', status: 'successful', to: payee })
    const listed = okResult(
      await apiCall('GET', '/trades?limit=20', { token: session }),
      listTradesResultSchema,
    )
    expect(
      listed.trades
        .map((trade) => trade.type)
        .filter((type) => type !== 'approval')
        .sort(),
    ).toEqual(['deposit', 'deposit', 'swap', 'swap', 'transfer'])
  })
})
