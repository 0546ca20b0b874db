import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { NetworkName } from '../../../lib/networkNames'
import { NATIVE_COIN } from '../../../lib/constants'
import { submittedRouterAbi } from '../../../lib/clientSigning/checkSwapRouterCall'
import { listTrades } from '../../../lib/db/trade'
import { deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { randomAddress } from '../../support/marketFixtures'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { type PreparedTransaction, signAll, signPrepared } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const submitEthereum = networkRoute('submit', 'ethereum')

// What submit refuses (DECISIONS §7.3): each a 4xx with nothing broadcast, the wallet's nonce on
// chain unchanged and no trade recorded; and an idempotent retry that sends nothing.

async function caller(network: NetworkName, tokens: Record<string, bigint> = {}) {
  const funded = await fundedAccount(network, { tokens })
  return { ...funded, token: (await signInWithWallet(funded.privateKey)).access }
}
type Caller = Awaited<ReturnType<typeof caller>>

const submit = (network: NetworkName, who: Caller, transactions: unknown, headers = {}) =>
  submitRoute(network, who.token, transactions, headers)

/** The approval and swap of 5 LINK for USDC, prepared for `who` on ethereum. */
async function linkSwap(who: Caller): Promise<PreparedTransaction[]> {
  const dex = deployment('ethereum')
  const link = dex.token('LINK')
  const response = await prepareRoute('swap/tokens/ethereum', who.token, {
    amount: '5',
    address0: link,
    decimals0: 18,
    address1: dex.usdStablecoin,
    decimals1: 6,
  })
  expect(response.status).toBe(200)
  return (response.body.result as { transactions: PreparedTransaction[] }).transactions
}

async function nativeTransfer(who: Caller, to: Address): Promise<PreparedTransaction[]> {
  const response = await prepareRoute('transfer/tokens/altchain', who.token, { to, amount: '1' })
  expect(response.status).toBe(200)
  return (response.body.result as { transactions: PreparedTransaction[] }).transactions
}

/** SwapRouter02's recipient meaning "the router itself" (Constants.ADDRESS_THIS). */
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'

/**
 * The prepared router call with every payment to the wallet sent to the router instead, and a
 * refundETH after it: the output stays in the router for anyone to sweep (issue 32).
 */
function outputLeftInRouter(data: Hex, wallet: Address): Hex {
  const outer = decodeFunctionData({ abi: submittedRouterAbi, data })
  if (outer.functionName !== 'multicall') throw new Error('the prepared swap is not a multicall')
  const [deadline, inner] = outer.args
  const redirected = inner.map((callData) => {
    const call = decodeFunctionData({ abi: submittedRouterAbi, data: callData })
    switch (call.functionName) {
      case 'exactInput': {
        const [params] = call.args
        if (!isAddressEqual(params.recipient, wallet)) return callData
        return encodeFunctionData({
          abi: submittedRouterAbi,
          functionName: 'exactInput',
          args: [{ ...params, recipient: ADDRESS_THIS }],
        })
      }
      case 'swapExactTokensForTokens': {
        const [amountIn, minimum, path, to] = call.args
        if (!isAddressEqual(to, wallet)) return callData
        return encodeFunctionData({
          abi: submittedRouterAbi,
          functionName: 'swapExactTokensForTokens',
          args: [amountIn, minimum, path, ADDRESS_THIS],
        })
      }
      case 'sweepToken': {
        const [token, minimum, to] = call.args
        if (!isAddressEqual(to, wallet)) return callData
        return encodeFunctionData({
          abi: submittedRouterAbi,
          functionName: 'sweepToken',
          args: [token, minimum, ADDRESS_THIS],
        })
      }
      default:
        return callData
    }
  })
  const refund = encodeFunctionData({ abi: submittedRouterAbi, functionName: 'refundETH' })
  return encodeFunctionData({
    abi: submittedRouterAbi,
    functionName: 'multicall',
    args: [deadline, [...redirected, refund]],
  })
}

const pendingNonce = (network: NetworkName, who: Caller) =>
  devnet(network).getTransactionCount({ address: who.address, blockTag: 'pending' })

async function expectNothingSent(network: NetworkName, who: Caller, nonce: number) {
  expect(
    await devnet(network).getTransactionCount({ address: who.address, blockTag: 'pending' }),
  ).toBe(nonce)
  const { count } = await listTrades({ wallet: who.address, limit: 1, offset: 0, direction: 'ASC' })
  expect(count).toBe(0)
}

describe('POST /v1/submit/{network} refuses before broadcasting anything', () => {
  const ethRefusals: Array<
    [string, (who: Caller, txs: PreparedTransaction[]) => Promise<Hex[]>, RegExp]
  > = [
    [
      'a transaction signed by another wallet',
      async (who, [approval, swap]) => [
        await signPrepared(
          privateKeyToAccount(generatePrivateKey()),
          approval as PreparedTransaction,
        ),
        await signPrepared(who.account, swap as PreparedTransaction),
      ],
      /transaction 1 is not signed by the signed-in wallet/,
    ],
    [
      'a legacy (type 0) transaction',
      async (who, [approval]) => {
        const prepared = approval as PreparedTransaction
        return [
          await who.account.signTransaction({
            type: 'legacy',
            chainId: prepared.chainId,
            nonce: prepared.nonce,
            gas: BigInt(prepared.gas),
            gasPrice: BigInt(prepared.maxFeePerGas),
            to: prepared.to,
            data: prepared.data,
          }),
        ]
      },
      /transaction 1 is of type legacy, not eip1559/,
    ],
    [
      'a transaction for another chain',
      async (who, [approval, swap]) => [
        await signPrepared(who.account, approval as PreparedTransaction),
        await signPrepared(who.account, swap as PreparedTransaction, { chainId: 1 }),
      ],
      /transaction 2 is for chain id 1/,
    ],
    [
      'a call to an unknown contract',
      async (who, [approval]) => [
        await signPrepared(who.account, approval as PreparedTransaction, { to: randomAddress() }),
      ],
      /neither the router nor a catalog token/,
    ],
    [
      'a token function the service does not prepare (transferFrom)',
      async (who, [approval]) => [
        await signPrepared(who.account, approval as PreparedTransaction, {
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transferFrom',
            args: [randomAddress(), who.address, 1n],
          }),
        }),
      ],
      /a function of token .* the service does not prepare/,
    ],
    [
      'an approval of another spender',
      async (who, [approval]) => [
        await signPrepared(who.account, approval as PreparedTransaction, {
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [randomAddress(), parseEther('5')],
          }),
        }),
      ],
      /approves a spender other than the router/,
    ],
    [
      'a router function the service does not prepare',
      async (who, [approval, swap]) => [
        await signPrepared(who.account, approval as PreparedTransaction),
        await signPrepared(who.account, swap as PreparedTransaction, { data: '0xe8e33700' }),
      ],
      /calls a swap router function other than multicall\(deadline, data\)/,
    ],
    [
      'value smuggled into an approval',
      async (who, [approval]) => [
        await signPrepared(who.account, approval as PreparedTransaction, { value: 1n }),
      ],
      /sends native coin with approve, which takes none/,
    ],
    [
      'value smuggled into a token swap',
      async (who, [approval, swap]) => [
        await signPrepared(who.account, approval as PreparedTransaction),
        await signPrepared(who.account, swap as PreparedTransaction, { value: parseEther('1') }),
      ],
      /sends native coin with a swap whose input is not the wrapped coin/,
    ],
    [
      'non-consecutive nonces',
      async (who, [approval, swap]) => [
        await signPrepared(who.account, approval as PreparedTransaction),
        await signPrepared(who.account, swap as PreparedTransaction, {
          nonce: (swap as PreparedTransaction).nonce + 1,
        }),
      ],
      /transaction 2 has nonce \d+; the nonces must be consecutive/,
    ],
    [
      "a first nonce that is not the wallet's next",
      async (who, transactions) => [
        ...(await Promise.all(
          transactions.map((transaction) =>
            signPrepared(who.account, transaction, { nonce: transaction.nonce + 1 }),
          ),
        )),
      ],
      /the wallet's next nonce on ethereum is \d+: prepare again/,
    ],
  ]

  it.each(ethRefusals)('answers 422 for %s', async (_, tamper, message) => {
    const who = await caller('ethereum', { LINK: parseEther('5') })
    const transactions = await linkSwap(who)
    const nonce = await pendingNonce('ethereum', who)

    const response = await submit('ethereum', who, await tamper(who, transactions))

    expect(response).toEqual({
      status: 422,
      body: { ok: false, error: { code: 422, message: expect.stringMatching(message) } },
    })
    await expectNothingSent('ethereum', who, nonce)
  })

  it('answers 422 to a swap whose output stays in the router behind a refundETH, and broadcasts nothing (issue 32)', async () => {
    const who = await caller('ethereum', { LINK: parseEther('5') })
    const [approval, swap] = await linkSwap(who)
    const prepared = swap as PreparedTransaction
    const nonce = await pendingNonce('ethereum', who)

    const response = await submit('ethereum', who, [
      await signPrepared(who.account, approval as PreparedTransaction),
      await signPrepared(who.account, prepared, {
        data: outputLeftInRouter(prepared.data, who.address),
      }),
    ])

    expect(response).toEqual({
      status: 422,
      body: {
        ok: false,
        error: {
          code: 422,
          message: expect.stringMatching(
            /transaction 2 .*leaves the output in the router instead of paying the wallet/,
          ),
        },
      },
    })
    await expectNothingSent('ethereum', who, nonce)
  })

  it('answers 422 for a native transfer sent to a token contract or with no value, on altchain', async () => {
    const who = await caller('altchain')
    const [transfer] = await nativeTransfer(who, randomAddress())
    const prepared = transfer as PreparedTransaction

    const toToken = await submit('altchain', who, [
      await signPrepared(who.account, prepared, { to: deployment('altchain').usdStablecoin }),
    ])
    const noValue = await submit('altchain', who, [
      await signPrepared(who.account, prepared, { value: 0n }),
    ])

    expect(toToken.status).toBe(422)
    expect(toToken.body.error?.message).toMatch(/sends the native coin to token/)
    expect(noValue.status).toBe(422)
    expect(noValue.body.error?.message).toMatch(/neither data nor value/)
    await expectNothingSent('altchain', who, 0)
  })

  it('answers 400 for bytes that are not a signed transaction, and for too many', async () => {
    const who = await caller('altchain')
    const [transfer] = await nativeTransfer(who, randomAddress())
    const signed = await signPrepared(who.account, transfer as PreparedTransaction)

    const garbage = await submit('altchain', who, ['0x02deadbeef'])
    const unsigned = await submit('altchain', who, [`0x${signed.slice(2, -140)}`])
    const tooMany = await submit('altchain', who, [signed, signed, signed, signed])
    const notHex = await submit('altchain', who, ['hello'])

    expect(garbage.body.error?.details).toEqual([
      { path: 'body.transactions.0', message: 'is not a serialized transaction' },
    ])
    expect([garbage.status, unsigned.status, tooMany.status, notHex.status]).toEqual([
      400, 400, 400, 400,
    ])
    await expectNothingSent('altchain', who, 0)
  })

  it('answers a retry with the same Idempotency-Key with the first hashes, sending nothing', async () => {
    const who = await caller('ethereum', { LINK: parseEther('5') })
    const signed = await signAll(who.account, await linkSwap(who))
    const headers = { 'idempotency-key': `submit-${generatePrivateKey().slice(2, 18)}` }
    const nonce = await pendingNonce('ethereum', who)

    const first = await submit('ethereum', who, signed, headers)
    const retry = await submit('ethereum', who, signed, headers)
    const other = await submit('ethereum', who, signed.slice(0, 1), headers)

    expect(first.status).toBe(200)
    expect(retry).toEqual(first)
    expect(other.status).toBe(422)
    expect(other.body.error?.message).toMatch(/different request/)
    expect(await pendingNonce('ethereum', who)).toBe(nonce + 2)
    const { count } = await listTrades({
      wallet: who.address,
      limit: 5,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(2)
  })

  it('answers a resubmission without a key with 422: the nonces are spent, nothing goes twice', async () => {
    const who = await caller('altchain')
    const signed = await signAll(who.account, await nativeTransfer(who, randomAddress()))

    const first = await submit('altchain', who, signed)
    const again = await submit('altchain', who, signed)

    expect(first.status).toBe(200)
    expect(again.status).toBe(422)
    expect(again.body.error?.message).toMatch(/next nonce on altchain is 1/)
    const { trades } = await listTrades({
      wallet: who.address,
      limit: 5,
      offset: 0,
      direction: 'ASC',
    })
    expect(trades).toEqual([expect.objectContaining({ type: 'transfer', token: NATIVE_COIN })])
  })

  it('answers 401001 without a token before reading the body', async () => {
    const response = await invoke(
      submitEthereum,
      httpEvent({ route: 'submitEthereum', body: { transactions: ['0x00'] } }),
    )

    expect(response.body.error?.code).toBe(401001)
  })
})
