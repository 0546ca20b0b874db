/* eslint-disable @typescript-eslint/require-await -- the fakes stand in for async functions and answer at once */
import '../../support/chainEnv'
import { createHash } from 'node:crypto'
import { createClient, custom, type Hex, keccak256, RpcRequestError } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { loadChainConfig } from '../../../../lib/config'
import {
  BadRequest,
  Conflict,
  UNAUTHORIZED,
  Unauthorized,
  Unprocessable,
} from '../../../../lib/errors'
import { type Broadcast, sendOnce } from '../../../../lib/swap/idempotent'
import { sendSigned } from '../../../../lib/swap/sendSigned'
import type { IdempotencyRecord } from '../../../../lib/db/idempotency'

// The send state machine without engines: the idempotency records live in a fake store (a Map
// with the table's conditional-put semantics), recording is a fake that completes the key, and
// the node is a fake EIP-1193 provider whose answers each test scripts. What is counted: sends,
// plans, broadcasts and RPC calls.

const store = vi.hoisted(() => new Map<string, IdempotencyRecord>())
const keyOf = ({ wallet, key }: { wallet: string; key: string }) => `${wallet}#${key}`

vi.mock('../../../../lib/db/idempotency', () => ({
  claimIdempotencyKey: vi.fn(
    async (parameters: { wallet: string; key: string; fingerprint: string }) => {
      const existing = store.get(keyOf(parameters))
      if (existing) return existing
      store.set(keyOf(parameters), { status: 'in_progress', fingerprint: parameters.fingerprint })
      return undefined
    },
  ),
  releaseIdempotencyKey: vi.fn(async (parameters: { wallet: string; key: string }) => {
    store.delete(keyOf(parameters))
  }),
}))

vi.mock('../../../../lib/swap/recordSent', () => ({
  recordSent: vi.fn(
    async (
      _trade: unknown,
      completion?: { wallet: string; key: string; txId: Hex; txIds?: Hex[] },
    ) => {
      if (!completion) return
      const record = store.get(keyOf(completion))
      if (record) Object.assign(record, { status: 'completed', txId: completion.txId })
    },
  ),
}))

const rpc = vi.hoisted(() => ({
  calls: [] as string[],
  answer: (_method: string, _params: unknown): unknown => undefined,
}))

vi.mock('../../../../lib/chain/clients', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../../lib/chain/clients')>()
  return {
    ...original,
    publicClient: () =>
      createClient({
        chain: original.chainOf(loadChainConfig('ethereum')),
        transport: custom(
          {
            request: async ({ method, params }: { method: string; params?: unknown }) => {
              rpc.calls.push(method)
              return rpc.answer(method, params)
            },
          },
          { retryCount: 0 },
        ),
      }),
  }
})

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TX = keccak256('0x01')

function operation(
  send: () => Promise<Broadcast> = async () => ({ txId: TX, trade: {} as Broadcast['trade'] }),
) {
  const counts = { plan: 0, send: 0 }
  return {
    counts,
    operation: {
      plan: async () => {
        counts.plan += 1
        return 'plan'
      },
      send: async () => {
        counts.send += 1
        return send()
      },
    },
  }
}

const liveSession = { check: async () => {} }

beforeEach(() => {
  store.clear()
  rpc.calls.length = 0
})

describe('sendOnce', () => {
  it('sends once per key: a retry gets the first hash and sends nothing', async () => {
    const { counts, operation: op } = operation()
    const request = { route: 'swap', amount: '1' }
    const first = await sendOnce({ wallet: WALLET, key: 'k1', request, session: liveSession }, op)
    const again = await sendOnce({ wallet: WALLET, key: 'k1', request, session: liveSession }, op)

    expect(first).toEqual({ txId: TX })
    expect(again).toEqual(first)
    expect(counts.send).toBe(1)
  })

  it('answers 422 for a key reused for another request, and 409 while the first still runs', async () => {
    const { operation: op } = operation()
    await sendOnce({ wallet: WALLET, key: 'k2', request: { a: 1 }, session: liveSession }, op)
    await expect(
      sendOnce({ wallet: WALLET, key: 'k2', request: { a: 2 }, session: liveSession }, op),
    ).rejects.toBeInstanceOf(Unprocessable)

    const { counts, operation: waiting } = operation()
    const request = { b: 1 }
    // The in-progress record must carry this request's fingerprint to count as the same request.
    store.set(`${WALLET}#k3`, {
      status: 'in_progress',
      fingerprint: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
    })
    await expect(
      sendOnce({ wallet: WALLET, key: 'k3', request, session: liveSession }, waiting),
    ).rejects.toBeInstanceOf(Conflict)
    expect(counts.send).toBe(0)
  })

  it('sends nothing when the session is gone, and frees the key it claimed', async () => {
    const { counts, operation: op } = operation()
    const ended = {
      check: async () =>
        Promise.reject(new Unauthorized(UNAUTHORIZED.sessionEnded, 'session ended')),
    }
    await expect(
      sendOnce({ wallet: WALLET, key: 'k4', request: {}, session: ended }, op),
    ).rejects.toBeInstanceOf(Unauthorized)
    expect(counts.send).toBe(0)
    expect(store.has(`${WALLET}#k4`)).toBe(false)
  })

  it('frees the key when the send fails before broadcasting, so a retry sends', async () => {
    const failing = operation(async () => Promise.reject(new Unprocessable('would revert')))
    await expect(
      sendOnce({ wallet: WALLET, key: 'k5', request: {}, session: liveSession }, failing.operation),
    ).rejects.toBeInstanceOf(Unprocessable)
    expect(store.has(`${WALLET}#k5`)).toBe(false)

    const { counts, operation: op } = operation()
    expect(
      await sendOnce({ wallet: WALLET, key: 'k5', request: {}, session: liveSession }, op),
    ).toEqual({ txId: TX })
    expect(counts.send).toBe(1)
  })

  it('refuses a malformed Idempotency-Key with 400 before any read', async () => {
    const { counts, operation: op } = operation()
    await expect(
      sendOnce({ wallet: WALLET, key: 'has space', request: {}, session: liveSession }, op),
    ).rejects.toBeInstanceOf(BadRequest)
    expect(counts).toEqual({ plan: 0, send: 0 })
  })
})

describe('sendSigned', () => {
  const account = privateKeyToAccount(generatePrivateKey())
  const parameters = {
    network: 'ethereum' as const,
    action: 'swap',
    account,
    nonce: 4,
    fees: { maxFeePerGas: 2n, maxPriorityFeePerGas: 1n },
    gas: 21_000n,
    to: WALLET as `0x${string}`,
    value: 1n,
  }
  const nonceTaken = () =>
    new RpcRequestError({
      body: {},
      url: 'fake',
      error: { code: -32000, message: 'nonce too low' },
    })

  it('re-reads the nonce and re-signs when another transaction took it, then broadcasts', async () => {
    let sends = 0
    rpc.answer = (method) => {
      if (method === 'eth_getTransactionCount') return '0x5'
      sends += 1
      if (sends === 1) throw nonceTaken()
      return TX
    }
    expect(await sendSigned(parameters)).toBe(TX)
    expect(rpc.calls).toEqual([
      'eth_sendRawTransaction',
      'eth_getTransactionCount',
      'eth_sendRawTransaction',
    ])
  })

  it('gives up with 409 after three sends that each lost the nonce', async () => {
    rpc.answer = (method) => {
      if (method === 'eth_getTransactionCount') return '0x5'
      throw nonceTaken()
    }
    await expect(sendSigned(parameters)).rejects.toBeInstanceOf(Conflict)
    expect(rpc.calls.filter((method) => method === 'eth_sendRawTransaction')).toHaveLength(3)
  })

  it('does not retry a send the node refuses for another reason', async () => {
    rpc.answer = () => {
      throw new RpcRequestError({
        body: {},
        url: 'fake',
        error: { code: -32000, message: 'insufficient funds for gas * price + value' },
      })
    }
    await expect(sendSigned(parameters)).rejects.toBeInstanceOf(Unprocessable)
    expect(rpc.calls).toEqual(['eth_sendRawTransaction'])
  })
})
