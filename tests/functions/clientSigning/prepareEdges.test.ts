import '../../support/env'
import { decodeFunctionData, getAddress, type Hex, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { swapRouter02Abi } from '../../../lib/chain/swapRouterCall'
import type { NetworkName } from '../../../lib/networkNames'
import { NATIVE_COIN } from '../../../lib/constants'
import { listTrades } from '../../../lib/db/trade'
import type { Preview } from '../../../lib/preview/previewSequence'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { balanceOf, deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { deployListedToken } from '../../support/listedToken'
import { randomAddress } from '../../support/marketFixtures'
import { type PreparedTransaction, signAll } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'

// Prepare and submit with the token zoo's fee-on-transfer token (the router's
// ...SupportingFeeOnTransferTokens functions, which submit allows), and what prepare refuses.

async function caller(network: NetworkName, tokens: Record<string, bigint> = {}) {
  const funded = await fundedAccount(network, { tokens })
  return { ...funded, token: (await signInWithWallet(funded.privateKey)).access }
}

const zoo = (network: NetworkName, symbol: string) => {
  const found = deployment(network).zoo.find((token) => token.symbol === symbol)
  if (!found) throw new Error(`no ${symbol} on ${network}`)
  return found
}

describe('a fee-on-transfer token through prepare and submit', () => {
  it.each([
    ['ethereum', 'swap/tokens/ethereum', 'FOT', 'USDC', 'swapExactTokensForTokens'],
    ['altchain', 'swap/native/altchain', 'NATIVE', 'FOT', 'swapExactTokensForTokens'],
  ] as const)(
    '%s: %s %s → %s: the hops moving FOT are V2 (SwapRouter02 %s pays what arrived), the others may be V3, at least amountOutMin',
    async (network, operation, from, to, functionName) => {
      const dex = deployment(network)
      const side = (symbol: string) =>
        symbol === 'NATIVE'
          ? { address: NATIVE_COIN, decimals: 18 }
          : symbol === 'USDC'
            ? { address: dex.usdStablecoin, decimals: 6 }
            : { address: zoo(network, symbol).address, decimals: zoo(network, symbol).decimals }
      const [zero, one] = [side(from), side(to)]
      const wallet = await caller(network, from === 'FOT' ? { FOT: parseEther('500') } : {})
      const amount = from === 'FOT' ? '300' : '0.5'
      const before = await balanceOf(network, wallet.address, one.address)

      const prepared = await prepareRoute(operation, wallet.token, {
        amount,
        address0: zero.address,
        decimals0: zero.decimals,
        address1: one.address,
        decimals1: one.decimals,
        slippageBps: 100,
      })
      expect(prepared.status).toBe(200)
      const { transactions, quote } = prepared.body.result as {
        transactions: PreparedTransaction[]
        quote: { amountOutMin: Hex }
      }
      const swap = transactions[transactions.length - 1] as PreparedTransaction
      const outer = decodeFunctionData({ abi: swapRouter02Abi, data: swap.data })
      if (outer.functionName !== 'multicall') throw new Error(outer.functionName)
      const inner = outer.args[1].map((data) => decodeFunctionData({ abi: swapRouter02Abi, data }))
      // §9.3: only the hops that move the fee-on-transfer token must be V2; the rest may be V3.
      const fot = zoo(network, 'FOT').address.toLowerCase()
      const swaps = inner.filter((call) => call.functionName !== 'unwrapWETH9')
      const fotCalls = swaps.filter((call) =>
        JSON.stringify(call.args, (_key, value: unknown) =>
          typeof value === 'bigint' ? value.toString() : value,
        )
          .toLowerCase()
          .includes(fot.slice(2)),
      )
      expect(fotCalls.length).toBeGreaterThan(0)
      for (const call of fotCalls) expect(call.functionName).toBe(functionName)
      // The FOT end of the trade is its V2 call: first when FOT is sold, last when it is bought.
      expect((from === 'FOT' ? swaps[0] : swaps.at(-1))?.functionName).toBe(functionName)
      const submitted = await submitRoute(
        network,
        wallet.token,
        await signAll(wallet.account, transactions),
      )

      expect(submitted.status).toBe(200)
      const { txId } = submitted.body.result as { txId: Hex }
      expect((await devnet(network).waitForTransactionReceipt({ hash: txId })).status).toBe(
        'success',
      )
      const received = (await balanceOf(network, wallet.address, one.address)) - before
      expect(received).toBeGreaterThanOrEqual(BigInt(quote.amountOutMin))
      const { trades } = await listTrades({
        wallet: wallet.address,
        limit: 5,
        offset: 0,
        direction: 'ASC',
      })
      expect(trades.at(-1)).toMatchObject({ type: 'swap', hash: txId, amount, token: zero.address })
    },
  )
})

describe('prepare refuses before building anything', () => {
  it('a transfer of a token outside the catalog (the {key} route moves any token)', async () => {
    const listed = await deployListedToken({ network: 'ethereum', supply: 1000n })
    const { access } = await signInWithWallet(listed.owner.privateKey)

    const response = await prepareRoute('transfer/tokens/ethereum', access, {
      to: randomAddress(),
      amount: '1',
      token: listed.address,
    })

    expect(response.status).toBe(422)
    expect(response.body.error?.message).toMatch(/is not a catalog token on ethereum/)
  })

  it('a swap the token balance cannot cover, and one the native balance cannot pay gas for: the preview names the issues', async () => {
    const wallet = await caller('ethereum', { LINK: parseEther('5') })
    const dex = deployment('ethereum')
    const link = getAddress(dex.token('LINK'))
    const body = (amount: string) => ({
      amount,
      address0: link,
      decimals0: 18,
      address1: dex.usdStablecoin,
      decimals1: 6,
    })
    const allowanceIssue = (required: bigint) => ({
      type: 'insufficientAllowance',
      token: link,
      spender: getAddress(dex.swapRouter),
      required: required.toString(),
      available: '0',
    })

    const short = await prepareRoute('swap/tokens/ethereum', wallet.token, body('6'))
    await devnet('ethereum').setBalance({ address: wallet.address, value: 0n })
    const noGas = await prepareRoute('swap/tokens/ethereum', wallet.token, body('5'))

    expect(short.status).toBe(200)
    const shortResult = short.body.result as {
      transactions: PreparedTransaction[]
      preview: Preview
    }
    expect(shortResult.transactions.map((transaction) => transaction.kind)).toEqual([
      'approval',
      'swap',
    ])
    expect(shortResult.preview.issues).toEqual([
      {
        type: 'insufficientBalance',
        token: link,
        required: parseEther('6').toString(),
        available: parseEther('5').toString(),
      },
      allowanceIssue(parseEther('6')),
      { type: 'simulationFailed', transaction: 1, kind: 'swap', reason: expect.any(String) },
    ])
    expect(shortResult.preview.transactions.map((transaction) => transaction.status)).toEqual([
      'success',
      'failure',
    ])
    expect(noGas.status).toBe(200)
    const noGasResult = noGas.body.result as {
      transactions: PreparedTransaction[]
      preview: Preview
    }
    const required = noGasResult.transactions.reduce(
      (sum, transaction) => sum + BigInt(transaction.gas) * BigInt(transaction.maxFeePerGas),
      0n,
    )
    expect(noGasResult.preview.issues).toEqual([
      {
        type: 'insufficientBalance',
        token: getAddress(NATIVE_COIN),
        required: required.toString(),
        available: '0',
      },
      allowanceIssue(parseEther('5')),
    ])
  })

  it('answers 401001 without a token and 400 for a body the {key} route would refuse', async () => {
    const wallet = await caller('altchain')

    const anonymous = await prepareRoute('transfer/tokens/altchain', undefined, {
      to: randomAddress(),
      amount: '1',
    })
    const tokenRoute = await prepareRoute('swap/tokens/altchain', wallet.token, {
      amount: '1',
      address0: NATIVE_COIN,
      decimals0: 18,
      address1: deployment('altchain').usdStablecoin,
      decimals1: 6,
    })
    const withKey = await prepareRoute('transfer/tokens/altchain', wallet.token, {
      to: randomAddress(),
      amount: '1',
      privateKey: wallet.privateKey,
    })

    expect(anonymous.body.error?.code).toBe(401001)
    expect(tokenRoute.status).toBe(400)
    expect(withKey.status).toBe(400)
    expect(JSON.stringify(withKey.body)).not.toContain(wallet.privateKey.slice(2))
  })
})
