import '../../support/env'
import fc from 'fast-check'
import { type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { NetworkName } from '../../../lib/networkNames'
import {
  MAX_PERMIT_DEADLINE_SECONDS,
  PERMIT_DEADLINE_SECONDS,
  withSelfPermit,
} from '../../../lib/swap/permit'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { deployment, devnet } from '../../support/devnetAccounts'
import {
  type PermitOffer,
  permitCaller,
  preparedSwap,
  signOffer,
  transactionsFrom,
  typedDataOf,
  usdcSwap,
} from '../../support/permitSwaps'
import { signPrepared } from '../../support/signPrepared'

// A permit signed for another chain, token, spender, amount, nonce or deadline, by another key,
// expired or running too long is 400 naming the permit, on prepare (body.permit) and on submit
// (a swap whose selfPermit carries it), and nothing is broadcast: the wallet's nonce and its
// transactions on chain are counted. Cases generated (fast-check, seeded); the same wallet then
// prepares and submits with the offer's own signature, so each refusal was the permit's.

const SEED = 2612
const RUNS = 36
type Detail = { path: string; message: string }
const firstDetail = (body: { error?: { details?: unknown } }) =>
  (body.error?.details as Detail[] | undefined)?.[0]

const RECOVERY = /it was signed for another chain, token, spender, amount, nonce or deadline$/

const KINDS = [
  'chain',
  'token',
  'spender',
  'amount',
  'nonce',
  'deadline',
  'signer',
  'expired',
  'tooLong',
] as const
type Kind = (typeof KINDS)[number]

interface Tampered {
  /** The deadline sent beside (prepare) or inside (submit) the signature. */
  deadline: bigint
  /** The amount the submitted selfPermit names (the swap's, except for `amount`). */
  value: bigint
  signature: Hex
  message: RegExp
}

/** A bad permit of kind `kind`, `delta` away from the offer where the kind has a size. */
async function tampered(
  network: NetworkName,
  wallet: Awaited<ReturnType<typeof permitCaller>>,
  offer: PermitOffer,
  { kind, delta, clock }: { kind: Kind; delta: bigint; clock: bigint },
): Promise<Tampered> {
  const dex = deployment(network)
  const deadline = BigInt(offer.deadline)
  const value = BigInt(offer.typedData.message.value)
  const sign = (changes: Parameters<typeof signOffer>[2]) =>
    signOffer(wallet.account, offer, changes)
  const stranger = privateKeyToAccount(generatePrivateKey())
  const other = (address: Address) => ({ deadline, value, message: RECOVERY, address })
  switch (kind) {
    case 'chain':
      return {
        ...other(dex.swapRouter),
        signature: await sign({ chainId: offer.typedData.domain.chainId + Number(delta) }),
      }
    case 'token':
      return {
        ...other(dex.swapRouter),
        signature: await sign({ verifyingContract: dex.token(dex.tokens[0]?.symbol ?? 'USDC') }),
      }
    case 'spender':
      return { ...other(dex.swapRouter), signature: await sign({ spender: dex.router }) }
    case 'amount':
      return {
        deadline,
        value: value + delta,
        message: RECOVERY,
        signature: await sign({ value: value + delta }),
      }
    case 'nonce':
      return { ...other(dex.swapRouter), signature: await sign({ nonce: delta }) }
    case 'deadline':
      return {
        deadline: deadline - (delta % 300n) - 1n,
        value,
        message: RECOVERY,
        signature: await sign({}),
      }
    case 'signer':
      return {
        ...other(dex.swapRouter),
        signature: await stranger.signTypedData(typedDataOf(offer)),
      }
    case 'expired': {
      const past = clock - BigInt(PERMIT_DEADLINE_SECONDS) - (delta % 10_000n) - 1n
      return {
        deadline: past,
        value,
        message: /^expired at \d+, before \d+$/,
        signature: await sign({ deadline: past }),
      }
    }
    case 'tooLong': {
      const far = deadline + BigInt(MAX_PERMIT_DEADLINE_SECONDS) + (delta % 10_000n)
      return {
        deadline: far,
        value,
        message: /^runs until \d+, more than 3600 s from \d+$/,
        signature: await sign({ deadline: far }),
      }
    }
  }
}

async function setUp(network: 'ethereum' | 'altchain') {
  const wallet = await permitCaller(network)
  const body = usdcSwap(network, '42.25')
  const answer = await preparedSwap(network, wallet.access, body)
  if (!answer.permit) throw new Error('no permit offered')
  const swap = answer.transactions.at(-1)
  if (!swap) throw new Error('no swap')
  return { wallet, body, offer: answer.permit, swap }
}

describe('permits refused with 400, nothing broadcast', () => {
  it(`generated bad permits on prepare and submit (seed ${SEED}, ${RUNS} runs)`, async () => {
    console.log(`permitRefusals seed ${SEED}`)
    const setups = {
      ethereum: await setUp('ethereum'),
      altchain: await setUp('altchain'),
    }
    const starts = {
      ethereum: await devnet('ethereum').getBlockNumber(),
      altchain: await devnet('altchain').getBlockNumber(),
    }
    const nonces = {
      ethereum: await devnet('ethereum').getTransactionCount({
        address: setups.ethereum.wallet.address,
      }),
      altchain: await devnet('altchain').getTransactionCount({
        address: setups.altchain.wallet.address,
      }),
    }
    const seen = new Set<string>()

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('ethereum' as const, 'altchain' as const),
        fc.constantFrom(...KINDS),
        fc.constantFrom('prepare' as const, 'submit' as const),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        async (network, kind, route, delta) => {
          seen.add(`${kind}:${route}`)
          const { wallet, body, offer, swap } = setups[network]
          const clock = BigInt(Math.floor(Date.now() / 1000))
          const bad = await tampered(network, wallet, offer, { kind, delta, clock })
          const response =
            route === 'prepare'
              ? await prepareRoute(`swap/tokens/${network}`, wallet.access, {
                  ...body,
                  permit: { deadline: Number(bad.deadline), signature: bad.signature },
                })
              : await submitRoute(network, wallet.access, [
                  await signPrepared(wallet.account, swap, {
                    nonce: nonces[network],
                    data: withSelfPermit(swap.data, {
                      token: body.address0,
                      value: bad.value,
                      deadline: bad.deadline,
                      signature: bad.signature,
                    }),
                  }),
                ])
          const detail = firstDetail(response.body)
          const expected =
            route === 'submit' && kind === 'amount'
              ? /^permits \d+ base units, but the swap spends \d+/
              : bad.message
          expect({ kind, route, status: response.status }).toEqual({ kind, route, status: 400 })
          expect(response.body.error?.message).toBe('the permit is not valid; nothing was sent')
          expect(detail?.path).toBe(route === 'prepare' ? 'body.permit' : 'body.transactions.0')
          expect(detail?.message).toMatch(expected)
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )

    for (const network of ['ethereum', 'altchain'] as const) {
      const { address } = setups[network].wallet
      expect(await devnet(network).getTransactionCount({ address, blockTag: 'pending' })).toBe(
        nonces[network],
      )
      expect(await transactionsFrom(network, address, starts[network])).toEqual([])
    }
    expect(seen.size).toBeGreaterThanOrEqual(12)

    // The same wallet, the offer's own signature: accepted, so each refusal was the permit's.
    const { wallet, body, offer } = setups.ethereum
    const fresh = await preparedSwap('ethereum', wallet.access, body)
    const signature = await signOffer(wallet.account, fresh.permit ?? offer)
    const answer = await preparedSwap('ethereum', wallet.access, {
      ...body,
      permit: { deadline: (fresh.permit ?? offer).deadline, signature },
    })
    expect(answer.transactions.map((transaction) => transaction.kind)).toEqual(['swap'])
  })

  it('a permit where none is needed: the native coin, or an allowance that covers the swap', async () => {
    const { wallet, body, offer } = await setUp('ethereum')
    const signature = await signOffer(wallet.account, offer)
    const dex = deployment('ethereum')
    // The wallet approves the router itself: the permit is no longer needed.
    const hash = await wallet.wallet.writeContract({
      address: dex.usdStablecoin,
      abi: [
        {
          type: 'function',
          name: 'approve',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'spender', type: 'address' },
            { name: 'amount', type: 'uint256' },
          ],
          outputs: [{ type: 'bool' }],
        },
      ],
      functionName: 'approve',
      args: [dex.swapRouter, 10n ** 12n],
    })
    await devnet('ethereum').waitForTransactionReceipt({ hash })

    const covered = await prepareRoute('swap/tokens/ethereum', wallet.access, {
      ...body,
      permit: { deadline: offer.deadline, signature },
    })

    expect(covered.status).toBe(400)
    expect(firstDetail(covered.body)).toEqual({
      path: 'body.permit',
      message: 'the router may already spend the swap’s amount: prepare again without a permit',
    })
  })

  it('a malformed permit is 400 naming the field, before any read', async () => {
    const { wallet, body } = await setUp('ethereum')
    for (const permit of [
      { deadline: 1, signature: '0x1234' },
      { deadline: -5, signature: `0x${'11'.repeat(65)}` },
      { deadline: 1, signature: `0x${'11'.repeat(65)}`, v: 27 },
      'signed',
    ]) {
      const response = await prepareRoute('swap/tokens/ethereum', wallet.access, {
        ...body,
        permit,
      })
      expect({ permit, status: response.status }).toEqual({ permit, status: 400 })
      expect(JSON.stringify(response.body.error?.details)).toMatch(/body\.permit/)
    }
  })
})
