import '../../support/env'
import { decodeFunctionData, erc20Abi, getAddress, type Hex, maxUint256, parseUnits } from 'viem'
import { readContract, sendRawTransaction, waitForTransactionReceipt } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/swap/getApproval'
import { NATIVE_COIN } from '../../../lib/constants'
import { db } from '../../../lib/db/client'
import type { NetworkName } from '../../../lib/networkNames'
import { APPROVAL_RPC_CAP } from '../../../lib/rpcCallCaps'
import { deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { randomAddress } from '../../support/marketFixtures'
import { counted } from '../../support/requestCounters'
import { type PreparedTransaction, signAll } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'

// GET /api/v1/swap/approval/{network} (DECISIONS §10.2) on the devnets: the router's allowance
// read, and the exact-amount approval a short one needs, signed and mined here.

const NETWORK: NetworkName = 'ethereum'

interface ApprovalAnswer {
  needed: boolean
  spender: string
  allowance: string
  amount: string
  transactions: PreparedTransaction[]
  preview?: { issues: unknown[]; allowanceChanges: { before: string; after: string }[] }
}

async function caller() {
  const funded = await fundedAccount(NETWORK, { tokens: { USDC: parseUnits('1000', 6) } })
  return { ...funded, token: (await signInWithWallet(funded.privateKey)).access }
}

function askApproval(
  token: string | undefined,
  query: Record<string, string>,
  network: string = NETWORK,
) {
  return invoke(
    handler,
    httpEvent({
      route: 'getApproval',
      pathParameters: { network },
      queryStringParameters: query,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
  )
}

/** The answer and the requests it cost, counted at the table client and the RPC transport. */
const askCounted = (token: string | undefined, query: Record<string, string>) =>
  counted(db(), () => askApproval(token, query))

async function mine(signed: Hex[]) {
  for (const raw of signed) {
    const hash = await sendRawTransaction(devnet(NETWORK), { serializedTransaction: raw })
    const receipt = await waitForTransactionReceipt(devnet(NETWORK), { hash })
    expect(receipt.status).toBe('success')
  }
}

const allowanceOf = (token: `0x${string}`, owner: `0x${string}`) =>
  readContract(devnet(NETWORK), {
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, deployment(NETWORK).swapRouter],
  })

describe('GET /api/v1/swap/approval/{network}', () => {
  it('no allowance: needed, one approve(router, amount) for exactly the amount; signed and mined, the next check is not needed', async () => {
    const wallet = await caller()
    const { usdStablecoin: usdc, swapRouter } = deployment(NETWORK)
    const query = { token: usdc, amount: '250000000', owner: wallet.address }
    const { value: response, tally } = await askCounted(wallet.token, query)

    expect(response.status).toBe(200)
    const answer = response.body.result as ApprovalAnswer
    expect(answer).toMatchObject({
      needed: true,
      spender: getAddress(swapRouter),
      allowance: '0',
      amount: '250000000',
    })
    expect(answer.transactions).toHaveLength(1)
    const [approval] = answer.transactions as [PreparedTransaction]
    expect(approval).toMatchObject({ kind: 'approval', to: getAddress(usdc), value: '0x0' })
    expect(decodeFunctionData({ abi: erc20Abi, data: approval.data })).toEqual({
      functionName: 'approve',
      args: [getAddress(swapRouter), 250_000_000n],
    })
    expect(answer.preview?.issues).toEqual([])
    expect(answer.preview?.allowanceChanges).toMatchObject([{ before: '0', after: '250000000' }])
    // The allowance read, then block, nonce, tip and native balance in one batch, then the
    // preview's eth_simulateV1: within the route's cap.
    expect(tally.rpc.byMethod).toEqual({
      eth_call: 1,
      eth_getBalance: 1,
      eth_getBlockByNumber: 1,
      eth_getTransactionCount: 1,
      eth_maxPriorityFeePerGas: 1,
      eth_simulateV1: 1,
    })
    expect(tally.rpc.calls).toBeLessThanOrEqual(APPROVAL_RPC_CAP)

    await mine(await signAll(wallet.account, answer.transactions))
    expect(await allowanceOf(usdc, wallet.address)).toBe(250_000_000n)
    const after = await askApproval(wallet.token, query)
    expect(after.status).toBe(200)
    expect(after.body.result).toEqual({
      needed: false,
      spender: getAddress(swapRouter),
      allowance: '250000000',
      amount: '250000000',
      transactions: [],
    })
  })

  it('a short non-zero allowance: approve(router, 0), then approve(router, amount), each mined', async () => {
    const wallet = await caller()
    const { usdStablecoin: usdc, swapRouter } = deployment(NETWORK)
    const first = await askApproval(wallet.token, {
      token: usdc,
      amount: '5',
      owner: wallet.address,
    })
    await mine(await signAll(wallet.account, (first.body.result as ApprovalAnswer).transactions))

    const response = await askApproval(wallet.token, {
      token: usdc,
      amount: '7000000',
      owner: wallet.address,
    })

    const answer = response.body.result as ApprovalAnswer
    expect(answer).toMatchObject({ needed: true, allowance: '5', amount: '7000000' })
    expect(
      answer.transactions.map(({ data }) => decodeFunctionData({ abi: erc20Abi, data }).args),
    ).toEqual([
      [getAddress(swapRouter), 0n],
      [getAddress(swapRouter), 7_000_000n],
    ])
    await mine(await signAll(wallet.account, answer.transactions))
    expect(await allowanceOf(usdc, wallet.address)).toBe(7_000_000n)
  })

  it('sufficient allowance: not needed, no transaction, one RPC call; any owner may be asked', async () => {
    const wallet = await caller()
    const { usdStablecoin: usdc } = deployment(NETWORK)
    const first = await askApproval(wallet.token, {
      token: usdc,
      amount: '900',
      owner: wallet.address,
    })
    await mine(await signAll(wallet.account, (first.body.result as ApprovalAnswer).transactions))
    // Asked by another signed-in wallet: a read of any owner's allowance.
    const other = await caller()
    const { value: response, tally } = await askCounted(other.token, {
      token: usdc,
      amount: '900',
      owner: wallet.address,
    })

    expect(response.status).toBe(200)
    expect(response.body.result).toMatchObject({
      needed: false,
      allowance: '900',
      amount: '900',
      transactions: [],
    })
    expect(tally.rpc.byMethod).toEqual({ eth_call: 1 })
  })

  it('the native coin: not needed, no RPC call', async () => {
    const wallet = await caller()
    const { value: response, tally } = await askCounted(wallet.token, {
      token: NATIVE_COIN,
      amount: '1000000000000000000',
      owner: wallet.address,
    })

    expect(response.status).toBe(200)
    expect(response.body.result).toMatchObject({
      needed: false,
      allowance: maxUint256.toString(),
      transactions: [],
    })
    expect(tally.rpc.calls).toBe(0)
  })

  it('a token that is not a contract: 422', async () => {
    const wallet = await caller()
    const response = await askApproval(wallet.token, {
      token: randomAddress(),
      amount: '1',
      owner: wallet.address,
    })

    expect(response.status).toBe(422)
    expect(response.body.ok).toBe(false)
    expect(response.body.error?.message).toMatch(/no contract/)
  })

  it('no wallet token: 401', async () => {
    const response = await askApproval(undefined, {
      token: deployment(NETWORK).usdStablecoin,
      amount: '1',
      owner: randomAddress(),
    })

    expect(response.status).toBe(401)
  })

  it.each([
    ['an unknown network', 'moonchain', {}],
    ['a bad token address', NETWORK, { token: '0x1234' }],
    ['a bad owner address', NETWORK, { owner: 'not-an-address' }],
    ['an amount of 0', NETWORK, { amount: '0' }],
    ['a decimal amount', NETWORK, { amount: '1.5' }],
    ['a negative amount', NETWORK, { amount: '-1' }],
    ['an amount of 2^256', NETWORK, { amount: (maxUint256 + 1n).toString() }],
    ['a missing amount', NETWORK, { amount: undefined }],
    ['an unknown field', NETWORK, { spender: randomAddress() }],
  ] as const)('%s: 400 in the envelope', async (_case, network, change) => {
    const wallet = await caller()
    const query: Record<string, string | undefined> = {
      token: deployment(NETWORK).usdStablecoin,
      amount: '1',
      owner: wallet.address,
      ...change,
    }
    const defined = Object.fromEntries(
      Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
    )

    const response = await askApproval(wallet.token, defined, network)

    expect(response.status).toBe(400)
    expect(response.body.ok).toBe(false)
    expect(response.body.error?.code).toBe(400)
  })
})
