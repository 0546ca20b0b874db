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
import { type Broadcast, sendOnce } from '../../../../lib/send/idempotent'
import { broadcastSigned, sendSigned } from '../../../../lib/send/sendSigned'
import { whileAdmitting } from '../../../../lib/admission'
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

vi.mock('../../../../lib/send/recordSent', () => ({
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

beforeEach(() => {
  store.clear()
  rpc.calls.length = 0
})

describe('sendOnce', () => {
  it('sends once per key: a retry gets the first hash and sends nothing', async () => {
    const { counts, operation: op } = operation()
    const request = { route: 'swap', amount: '1' }
    const first = await sendOnce({ wallet: WALLET, key: 'k1', request }, op)
    const again = await sendOnce({ wallet: WALLET, key: 'k1', request }, op)

    expect(first).toEqual({ txId: TX })
    expect(again).toEqual(first)
    expect(counts.send).toBe(1)
  })

  it('answers 422 for a key reused for another request, and 409 while the first still runs', async () => {
    const { operation: op } = operation()
    await sendOnce({ wallet: WALLET, key: 'k2', request: { a: 1 } }, op)
    await expect(
      sendOnce({ wallet: WALLET, key: 'k2', request: { a: 2 } }, op),
    ).rejects.toBeInstanceOf(Unprocessable)

    const { counts, operation: waiting } = operation()
    const request = { b: 1 }
    // The in-progress record must carry this request's fingerprint to count as the same request.
    store.set(`${WALLET}#k3`, {
      status: 'in_progress',
      fingerprint: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
    })
    await expect(sendOnce({ wallet: WALLET, key: 'k3', request }, waiting)).rejects.toBeInstanceOf(
      Conflict,
    )
    expect(counts.send).toBe(0)
  })

  it('frees the key when the send fails before broadcasting, so a retry sends', async () => {
    const failing = operation(async () => Promise.reject(new Unprocessable('would revert')))
    await expect(
      sendOnce({ wallet: WALLET, key: 'k5', request: {} }, failing.operation),
    ).rejects.toBeInstanceOf(Unprocessable)
    expect(store.has(`${WALLET}#k5`)).toBe(false)

    const { counts, operation: op } = operation()
    expect(await sendOnce({ wallet: WALLET, key: 'k5', request: {} }, op)).toEqual({ txId: TX })
    expect(counts.send).toBe(1)
  })

  it('refuses a malformed Idempotency-Key with 400 before any read', async () => {
    const { counts, operation: op } = operation()
    await expect(
      sendOnce({ wallet: WALLET, key: 'has space', request: {} }, op),
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

  it('broadcasts nothing before the session read beside the route admits it', async () => {
    const sentWhen: string[] = []
    let admittedYet = false
    rpc.answer = () => {
      sentWhen.push(admittedYet ? 'after' : 'before')
      return TX
    }
    let admit = () => {}
    const admission = new Promise<void>((resolve) => {
      admit = resolve
    })

    const sending = whileAdmitting(admission, () => sendSigned(parameters))
    // A turn of the event loop: long enough to sign and send, were nothing holding it back.
    await new Promise((resolve) => setImmediate(resolve))
    admittedYet = true
    admit()

    expect(await sending).toBe(TX)
    expect(sentWhen).toEqual(['after'])
  })

  it('broadcasts nothing, signed here or by the client, for a session that is refused', async () => {
    rpc.answer = () => TX
    const refused = new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session has ended')
    const admission = Promise.reject(refused)
    admission.catch(() => undefined)

    await expect(whileAdmitting(admission, () => sendSigned(parameters))).rejects.toBe(refused)
    await expect(
      whileAdmitting(admission, () => broadcastSigned('ethereum', 'swap', '0x02')),
    ).rejects.toBe(refused)
    expect(rpc.calls).toEqual([])
  })
})
