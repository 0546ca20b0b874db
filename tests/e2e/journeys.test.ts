import { randomUUID } from 'node:crypto'
import { createWalletClient, formatEther, type Hex, http, parseEther } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { projectId } from '../../lib/db/project'
import { NATIVE_COIN } from '../../lib/constants'
import { NETWORK_NAMES } from '../../lib/networkNames'
import { accountLoginResultSchema, accountTokenResultSchema } from '../../schemas/account'
import { nonceResultSchema } from '../../schemas/auth'
import { listNetworksResultSchema, walletBalancesResultSchema } from '../../schemas/networks'
import {
  dailyHistoryResultSchema,
  monthlyHistoryResultSchema,
  yearlyHistoryResultSchema,
} from '../../schemas/priceHistory'
import { projectResultSchema } from '../../schemas/project'
import { emptyResultSchema, sessionTokensSchema } from '../../schemas/session'
import { quoteWithCallResultSchema, txResultSchema } from '../../schemas/swap'
import { listTradesResultSchema, tradeRecordSchema } from '../../schemas/trade'
import { mnemonicResultSchema, walletResultSchema } from '../../schemas/wallet'
import { watchlistResultSchema } from '../../schemas/watchlist'
import { apiCall } from '../support/apiCall'
import { balanceOf, deployment, devnet, fundFromDemoAccount } from '../support/devnetAccounts'
import { errorOf, okResult } from '../support/envelope'

// Two users meet the whole service over HTTP through serverless offline, one request after
// another as a client would make them. Every response is checked against the envelope and the
// result schema its handler declares (okResult), then for the business facts it carries.

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \+00:00$/
const SESSION_ENDED = { status: 401, code: 401003 }

const dex = deployment('ethereum')
const link = dex.token('LINK')
const usdc = dex.usdStablecoin
const linkProject = projectId('ethereum', link)
const usdcProject = projectId('ethereum', usdc)

describe('journeys over HTTP (serverless offline)', () => {
  it('a wallet user creates a wallet, is funded, signs in, watches, quotes, swaps, reads its trades and logs out', async () => {
    const client = devnet('ethereum')

    // A new wallet from a new phrase: the address is the phrase's first BIP44 account.
    const { mnemonic } = okResult(await apiCall('GET', '/wallet/mnemonic'), mnemonicResultSchema)
    const wallet = okResult(
      await apiCall('POST', '/wallet/create', { body: { mnemonic } }),
      walletResultSchema,
    )
    // The key and the address agree, and both are the phrase's account at m/44'/60'/0'/0/0.
    const account = privateKeyToAccount(wallet.privateKey as Hex)
    const { address } = account
    expect(mnemonic.split(' ')).toHaveLength(12)
    expect(wallet.address).toBe(address)
    expect(address).toBe(mnemonicToAccount(mnemonic).address)

    // Funded from the demo account: 5 ETH for gas and 100 LINK to swap.
    await fundFromDemoAccount('ethereum', address, {
      native: parseEther('5'),
      tokens: { LINK: parseEther('100') },
    })

    // Sign-in with Ethereum, signed by a viem wallet client holding the created key.
    const signer = createWalletClient({ account, chain: client.chain, transport: http(dex.rpcUrl) })
    const nonce = okResult(await apiCall('GET', `/auth/nonce/${address}`), nonceResultSchema)
    const signature = await signer.signMessage({ message: nonce.message })
    const session = okResult(
      await apiCall('POST', '/auth/login', { body: { address, signature } }),
      sessionTokensSchema,
    )
    const token = session.access
    expect(nonce.message).toContain(address)
    expect(nonce.message).toContain(`Nonce: ${nonce.nonce}`)

    // Every network attached; the balance is the funding, on ethereum only.
    const { networks } = okResult(await apiCall('GET', '/networks'), listNetworksResultSchema)
    okResult(
      await apiCall('POST', '/networks/wallet', {
        token,
        body: { networkIds: networks.map(({ id }) => id) },
      }),
      emptyResultSchema,
    )
    const funded = okResult(
      await apiCall('GET', '/networks/wallet/balance', { token }),
      walletBalancesResultSchema,
    )
    expect(funded.networksBalance).toEqual(
      [...NETWORK_NAMES]
        .sort()
        .map((network) =>
          network === 'ethereum'
            ? { network, balance: 5, balanceExact: '5' }
            : { network, balance: 0, balanceExact: '0' },
        ),
    )

    // Watchlist: listed in the order added, with prices; removing one leaves the other.
    for (const id of [linkProject, usdcProject]) {
      okResult(await apiCall('POST', `/watchlist/${id}`, { token }), emptyResultSchema)
    }
    const watched = okResult(
      await apiCall('GET', '/watchlist/projects', { token }),
      watchlistResultSchema,
    )
    okResult(await apiCall('DELETE', `/watchlist/${linkProject}`, { token }), emptyResultSchema)
    const stillWatched = okResult(
      await apiCall('GET', '/watchlist/projects', { token }),
      watchlistResultSchema,
    )
    expect(watched.watchlist).toEqual([
      expect.objectContaining({ id: linkProject, symbol: 'LINK', name: 'Demo Chainlink' }),
      expect.objectContaining({ id: usdcProject, symbol: 'USDC' }),
    ])
    expect(watched.watchlist[0]?.price).toBeCloseTo(15.5, 0)
    expect(stillWatched.watchlist.map(({ id }) => id)).toEqual([usdcProject])

    // An exact quote for 40 LINK in USDC (no slippage, so amountOutMin is the amount out).
    const query = new URLSearchParams({
      amount: '40',
      address0: link,
      decimals0: '18',
      address1: usdc,
      decimals1: '6',
      slippageBps: '0',
    })
    const quotedAt = await client.getBlockNumber({ cacheTime: 0 })
    const quote = okResult(
      await apiCall('GET', `/swap/quote/ethereum?${query.toString()}`),
      quoteWithCallResultSchema,
    )
    const quotedOut = BigInt(quote.amountOutMin)
    expect(quote).toMatchObject({ amount: 40, decimal: 6 })
    expect(quote.quote).toBe(Number(quotedOut) / 1e6)
    // 40 × $15.5 less the pool fee, within 2 %: other files trade LINK on the same devnet (the
    // amount it pays is checked below, exactly when no other trade came between).
    expect(Math.abs(quote.quote / (40 * 15.5 * 0.997) - 1)).toBeLessThan(0.02)
    expect([quote.path[0], quote.path.at(-1)]).toEqual([link, usdc])
    expect(BigInt(quote.value)).toBe(0n)

    // The swap: an approval for the router, then the swap, both signed by the service.
    const { txId } = okResult(
      await apiCall('POST', `/swap/tokens/ethereum/${wallet.privateKey}`, {
        token,
        body: { amount: '40', address0: link, decimals0: 18, address1: usdc, decimals1: 6 },
      }),
      txResultSchema,
    )
    const swapReceipt = await client.waitForTransactionReceipt({ hash: txId as Hex })
    const usdcReceived = await balanceOf('ethereum', address, usdc)
    expect(swapReceipt.status).toBe('success')
    expect(await balanceOf('ethereum', address, link)).toBe(parseEther('60'))
    // Other files trade on the devnet too: the quote holds exactly when the approval and the
    // swap were the next two blocks.
    if (swapReceipt.blockNumber === quotedAt + 2n) expect(usdcReceived).toBe(quotedOut)
    expect(usdcReceived).toBeGreaterThan((quotedOut * 99n) / 100n)

    // Trades: the swap and its approval, newest first. The deposit indexer (every minute) may
    // or may not have recorded the two funding transfers yet, so deposits are checked apart.
    const listed = okResult(
      await apiCall('GET', '/trades?limit=10', { token }),
      listTradesResultSchema,
    )
    const own = listed.trades.filter(({ type }) => type !== 'deposit')
    const deposits = listed.trades.filter(({ type }) => type === 'deposit')
    const settledOrNot = expect.stringMatching(/^(pending|successful)$/)
    expect(listed.count).toBe(listed.trades.length)
    expect(own).toEqual([
      { id: expect.any(String), type: 'swap', status: settledOrNot, amount: 40, amountExact: '40' },
      {
        id: expect.any(String),
        type: 'approval',
        status: settledOrNot,
        amount: 40,
        amountExact: '40',
      },
    ])
    for (const deposit of deposits) {
      expect(deposit.status).toBe('successful')
      expect([5, 100]).toContain(deposit.amount)
    }
    const [swapItem, approvalItem] = own

    // Lookups settle a mined trade on read: the swap is successful with its receipt's figures.
    const byHash = okResult(
      await apiCall('GET', `/trade/hash/${txId}`, { token }),
      tradeRecordSchema,
    )
    const byId = okResult(
      await apiCall('GET', `/trade/id/${swapItem?.id}`, { token }),
      tradeRecordSchema,
    )
    const approval = okResult(
      await apiCall('GET', `/trade/id/${approvalItem?.id}`, { token }),
      tradeRecordSchema,
    )
    expect(byHash).toEqual({
      id: swapItem?.id,
      hash: txId,
      type: 'swap',
      network: 'ethereum',
      status: 'successful',
      amount: 40,
      amountExact: '40',
      gasUsed: Number(swapReceipt.gasUsed),
      blockNumber: Number(swapReceipt.blockNumber),
      isNativeTransfer: false,
      from: address,
      to: dex.swapRouter,
      createdAt: expect.stringMatching(TIMESTAMP),
    })
    expect(byId).toEqual(byHash)
    expect(approval).toMatchObject({
      type: 'approval',
      status: 'successful',
      amount: 40,
      from: address,
      to: dex.swapRouter,
    })

    // The coin balance lost exactly the gas of the two transactions.
    const approvalReceipt = await client.waitForTransactionReceipt({ hash: approval.hash as Hex })
    const gasPaid = [approvalReceipt, swapReceipt].reduce(
      (sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice,
      0n,
    )
    const afterSwap = okResult(
      await apiCall('GET', '/networks/wallet/balance', { token }),
      walletBalancesResultSchema,
    )
    expect(await balanceOf('ethereum', address, NATIVE_COIN)).toBe(parseEther('5') - gasPaid)
    expect(afterSwap.networksBalance).toContainEqual({
      network: 'ethereum',
      balance: Number(formatEther(parseEther('5') - gasPaid)),
      balanceExact: formatEther(parseEther('5') - gasPaid),
    })

    // Refresh rotates the session; logout ends the new one; every token of the journey is dead.
    const rotated = okResult(
      await apiCall('GET', '/auth/refresh', { token: session.refresh }),
      sessionTokensSchema,
    )
    okResult(await apiCall('DELETE', '/auth/logout', { token: rotated.access }), emptyResultSchema)
    expect(errorOf(await apiCall('GET', '/trades', { token: session.access }))).toEqual(
      SESSION_ENDED,
    )
    expect(errorOf(await apiCall('GET', '/trades', { token: rotated.access }))).toEqual(
      SESSION_ENDED,
    )
    expect(errorOf(await apiCall('GET', '/auth/refresh', { token: rotated.refresh }))).toEqual(
      SESSION_ENDED,
    )
    expect(errorOf(await apiCall('GET', '/auth/refresh', { token: session.refresh }))).toEqual(
      SESSION_ENDED,
    )
  })

  it('an account user registers, signs in, reads a project and its price history, refreshes and logs out', async () => {
    // Made up per run, never printed.
    const credentials = { username: `journey_${randomUUID().slice(0, 8)}`, password: randomUUID() }

    okResult(await apiCall('POST', '/account/register', { body: credentials }), emptyResultSchema)
    const { token, device } = okResult(
      await apiCall('POST', '/account/login', { body: credentials }),
      accountLoginResultSchema,
    )
    // The device token of that login signs in again, and is answered a fresh one.
    const again = okResult(
      await apiCall('POST', '/account/login', { body: { ...credentials, device } }),
      accountLoginResultSchema,
    )
    expect(again.device).not.toBe(device)

    // The demo LINK, priced and synced when the stack started.
    const { project } = okResult(
      await apiCall('GET', `/project/${linkProject}`, { token: token.access }),
      projectResultSchema,
    )
    expect(project).toMatchObject({
      id: linkProject,
      symbol: 'LINK',
      address: link,
      decimals: 18,
      network: 'ethereum',
      total_supply: 600_000_000,
      total_supply_exact: '600000000',
      circulating_supply: 600_000_000,
      circulating_supply_exact: '600000000',
      createdAt: expect.stringMatching(TIMESTAMP),
    })
    expect(project.price).toBeCloseTo(15.5, 0)
    expect(project.market_cap).toBeCloseTo(project.price * project.circulating_supply, 0)
    expect(project.fully_diluted_market_cap).toBeCloseTo(project.price * project.total_supply, 0)

    // Public history: oldest first, each point stamped with its bucket start; windows full from
    // the devnet's year (DECISIONS §8.3; a sampler run may be due on a bucket just opened), the
    // latest hour the pools' average over it, about the project's price.
    const histories = [
      okResult(
        await apiCall('GET', `/price/history/daily/${linkProject}`),
        dailyHistoryResultSchema,
      ).history.map(({ avgPrice, hour }) => ({ avgPrice, at: hour })),
      okResult(
        await apiCall('GET', `/price/history/monthly/${linkProject}`),
        monthlyHistoryResultSchema,
      ).history.map(({ avgPrice, day }) => ({ avgPrice, at: day })),
      okResult(
        await apiCall('GET', `/price/history/yearly/${linkProject}`),
        yearlyHistoryResultSchema,
      ).history.map(({ avgPrice, month }) => ({ avgPrice, at: month })),
    ]
    for (const [index, history] of histories.entries()) {
      const stamps = history.map(({ at }) => at)
      expect(history.length).toBeGreaterThanOrEqual([23, 29, 11][index] ?? 1)
      expect(stamps).toEqual([...stamps].sort())
      expect(stamps.every((stamp) => TIMESTAMP.test(stamp))).toBe(true)
      expect(history.every(({ avgPrice }) => avgPrice > 0)).toBe(true)
    }
    expect(histories[0]?.at(-1)?.avgPrice).toBeCloseTo(project.price, 0)

    // Refresh rotates; logout ends the new session; both access tokens and refresh tokens die.
    const rotated = okResult(
      await apiCall('GET', '/account/refresh', { token: token.refresh }),
      accountTokenResultSchema,
    ).token
    expect(
      errorOf(await apiCall('GET', `/project/${linkProject}`, { token: token.access })),
    ).toEqual(SESSION_ENDED)
    okResult(
      await apiCall('DELETE', '/account/logout', { token: rotated.access }),
      emptyResultSchema,
    )
    expect(
      errorOf(await apiCall('GET', `/project/${linkProject}`, { token: rotated.access })),
    ).toEqual(SESSION_ENDED)
    expect(errorOf(await apiCall('GET', '/account/refresh', { token: rotated.refresh }))).toEqual(
      SESSION_ENDED,
    )
  })
})
