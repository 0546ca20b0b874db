import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  parseAbi,
  type Hex,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { getPermitSupport } from '../../../lib/db/permitSupport'
import { listTrades } from '../../../lib/db/trade'
import { functionName } from '../../../lib/networks/operations'
import type { NetworkName } from '../../../lib/networkNames'
import type { Preview } from '../../../lib/preview/previewSequence'
import { permitSupportOf, probePermit } from '../../../lib/swap/permitSupport'
import { submitRoute } from '../../support/clientSigningRoutes'
import { deployment, devnet } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { networkHandler } from '../../support/networkRoutes'
import {
  permitAbi,
  permitCaller,
  preparedSwap,
  signOffer,
  transactionsFrom,
  usdcSwap,
} from '../../support/permitSwaps'
import { measuredChanges, minedAlone, previewChanges } from '../../support/previewChecks'
import { signAll } from '../../support/signPrepared'

// One-signature approvals (DECISIONS §10.2) through the real handlers on both devnets: the devnet
// USDC is OpenZeppelin's ERC20Permit; prepare offers its EIP-712 permit, the wallet signs it and
// prepares again, and the one swap it signs starts its multicall with the router's selfPermit.
// The chain judges: the wallet's transactions, the router's allowance, the permit nonce, and the
// balances against the preview.

const NETWORKS = ['ethereum', 'altchain'] as const
const ATTEMPTS = 3

const routerAbi = parseAbi([
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) payable',
])

const allowanceOf = (network: NetworkName, owner: Address) => {
  const dex = deployment(network)
  return devnet(network).readContract({
    address: dex.usdStablecoin,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, dex.swapRouter],
  })
}

const permitNonceOf = (network: NetworkName, owner: Address) =>
  devnet(network).readContract({
    address: deployment(network).usdStablecoin,
    abi: permitAbi,
    functionName: 'nonces',
    args: [owner],
  })

const pairsOf = (preview: Preview, wallet: Address, tokens: Address[]): [Address, Address][] => [
  ...preview.balanceChanges.map((change) => [change.address, change.token] as [Address, Address]),
  ...tokens.map((token) => [wallet, token] as [Address, Address]),
]

describe('EIP-2612 permit support, probed on chain', () => {
  it.each(NETWORKS)(
    '%s: USDC has a permit; LINK-like, USDT-like, FoT and WETH do not',
    async (network) => {
      const dex = deployment(network)
      const router = dex.swapRouter
      const others = [...dex.tokens.slice(0, 2), ...dex.zoo].map((token) => token.address)

      expect(await probePermit(network, dex.usdStablecoin, router)).toEqual({
        supported: true,
        name: 'Demo USD Coin',
        version: '1',
      })
      for (const token of [...others, dex.wrappedNative]) {
        expect({ token, ...(await probePermit(network, token, router)) }).toEqual({
          token,
          supported: false,
        })
      }
    },
  )

  it('keeps the answer in the table, by address', async () => {
    const dex = deployment('ethereum')
    await permitSupportOf('ethereum', dex.usdStablecoin, dex.swapRouter)

    expect(await getPermitSupport('ethereum', dex.usdStablecoin.toUpperCase())).toEqual({
      supported: true,
      name: 'Demo USD Coin',
      version: '1',
    })
  })
})

describe('a permit swap over HTTP: prepare, sign the permit, prepare again, sign, submit', () => {
  it.each(NETWORKS)(
    '%s: one signature and one transaction; the router keeps no allowance; the preview is what was mined',
    async (network) => {
      const dex = deployment(network)
      for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
        const wallet = await permitCaller(network)
        const body = usdcSwap(network, '120')
        const first = await preparedSwap(network, wallet.access, body)
        // Offered beside the approval flow, for exactly the amount, the router, the chain.
        expect(first.transactions.map((transaction) => transaction.kind)).toEqual([
          'approval',
          'swap',
        ])
        const offer = first.permit
        if (!offer) throw new Error('no permit offered for USDC')
        expect(offer.typedData.domain).toEqual({
          name: 'Demo USD Coin',
          version: '1',
          chainId: dex.chainId,
          verifyingContract: getAddress(dex.usdStablecoin),
        })
        // As eth_signTypedData_v4 takes it: the domain's fields listed beside the permit's.
        expect(offer.typedData.types).toEqual({
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        })
        expect(offer.typedData.message).toEqual({
          owner: wallet.address,
          spender: dex.swapRouter,
          value: '120000000',
          nonce: '0',
          deadline: String(offer.deadline),
        })

        const signature = await signOffer(wallet.account, offer)
        const second = await preparedSwap(network, wallet.access, {
          ...body,
          permit: { deadline: offer.deadline, signature },
        })
        expect(second.permit).toBeUndefined()
        expect(second.transactions).toHaveLength(1)
        const [swap] = second.transactions
        if (!swap) throw new Error('no swap')
        expect(swap.kind).toBe('swap')
        const outer = decodeFunctionData({ abi: routerAbi, data: swap.data })
        const inner = outer.functionName === 'multicall' ? outer.args[1] : []
        const firstCall = decodeFunctionData({ abi: routerAbi, data: inner[0] as Hex })
        expect(firstCall.functionName).toBe('selfPermit')
        expect(firstCall.args.slice(0, 3)).toEqual([
          getAddress(dex.usdStablecoin),
          120_000_000n,
          BigInt(offer.deadline),
        ])
        expect(second.preview.issues).toEqual([])

        const startBlock = await devnet(network).getBlockNumber()
        const nonce = await devnet(network).getTransactionCount({ address: wallet.address })
        const response = await submitRoute(
          network,
          wallet.access,
          await signAll(wallet.account, second.transactions),
        )
        expect(response.status, JSON.stringify(response.body)).toBe(200)
        const { txId, txIds } = response.body.result as { txId: Hash; txIds: Hash[] }
        expect(txIds).toEqual([txId])
        const receipt = await devnet(network).waitForTransactionReceipt({ hash: txId })
        expect(receipt.status).toBe('success')

        expect(await devnet(network).getTransactionCount({ address: wallet.address })).toBe(
          nonce + 1,
        )
        expect(await transactionsFrom(network, wallet.address, startBlock)).toEqual([txId])
        expect(await allowanceOf(network, wallet.address)).toBe(0n)
        expect(await permitNonceOf(network, wallet.address)).toBe(1n)
        // Another file's transaction between the preview and ours changes the state: again.
        if (!(await minedAlone(network, second.preview, [receipt.blockNumber]))) continue
        const pairs = pairsOf(second.preview, wallet.address, [body.address0, body.address1])
        const measured = await measuredChanges(network, wallet.address, pairs, [receipt])
        expect(previewChanges(second.preview)).toEqual(measured)
        return
      }
      throw new Error(`${ATTEMPTS} attempts met another transaction between preview and mining`)
    },
  )

  it('a token without permit (LINK) still gets the approval flow and no permit', async () => {
    const wallet = await permitCaller('ethereum')
    const body = usdcSwap('ethereum', '50')
    // LINK into USDC: the wallet holds none, so the preview names the balance; prepare answers.
    const answer = await preparedSwap('ethereum', wallet.access, {
      ...body,
      address0: body.address1,
      decimals0: body.decimals1,
      address1: body.address0,
      decimals1: body.decimals0,
      amount: '1',
    })

    expect(answer.permit).toBeUndefined()
    expect(answer.transactions[0]?.kind).toBe('approval')
  })
})

describe('the {key} route signs the permit itself', () => {
  it.each(NETWORKS)(
    '%s: one transaction, no approval sent or recorded, no standing allowance, the preview mined',
    async (network) => {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
        const wallet = await permitCaller(network)
        const body = usdcSwap(network, '75.5')
        const startBlock = await devnet(network).getBlockNumber()
        const nonce = await devnet(network).getTransactionCount({ address: wallet.address })

        const response = await invoke(
          await networkHandler('swapTokens', network),
          httpEvent({
            route: functionName('swapTokens', network),
            pathParameters: { key: wallet.privateKey },
            headers: { authorization: `Bearer ${wallet.access}` },
            body,
          }),
        )

        expect(response.status, JSON.stringify(response.body)).toBe(200)
        const { txId, preview } = response.body.result as { txId: Hash; preview: Preview }
        const receipt = await devnet(network).waitForTransactionReceipt({ hash: txId })
        expect(receipt.status).toBe('success')
        expect(preview.issues).toEqual([])
        expect(await devnet(network).getTransactionCount({ address: wallet.address })).toBe(
          nonce + 1,
        )
        expect(await transactionsFrom(network, wallet.address, startBlock)).toEqual([txId])
        expect(await allowanceOf(network, wallet.address)).toBe(0n)
        expect(await permitNonceOf(network, wallet.address)).toBe(1n)
        const { trades } = await listTrades({
          wallet: wallet.address,
          limit: 10,
          offset: 0,
          direction: 'ASC',
        })
        expect(trades.map((trade) => trade.type)).toEqual(['swap'])
        if (!(await minedAlone(network, preview, [receipt.blockNumber]))) continue
        const pairs = pairsOf(preview, wallet.address, [body.address0, body.address1])
        const measured = await measuredChanges(network, wallet.address, pairs, [receipt])
        expect(previewChanges(preview)).toEqual(measured)
        return
      }
      throw new Error(`${ATTEMPTS} attempts met another transaction between preview and mining`)
    },
  )
})
