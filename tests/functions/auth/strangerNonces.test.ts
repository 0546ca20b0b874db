import '../../support/env'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { httpEvent, invoke } from '../../support/httpEvent'
import { uniqueClient } from '../../support/uniqueClient'

// Issue 39, row 1 (DECISIONS §10.4): no number or rate of nonce requests from other clients stops
// an owner's sign-in, with or without `nonce`. Each stranger is a client of its own (an IPv6 /64
// of its own), each within its own budget of 30 nonces a minute. Time is represented by the
// strangers' requests themselves: "5 s at 15 a second" is 75 requests between the owner's nonce
// and its signature, sent by the test, so the replay holds however busy the machine is.

type Variant = 'with `nonce`' | 'without `nonce`'
const VARIANTS: Variant[] = ['with `nonce`', 'without `nonce`']

function requestNonce(address: Address, sourceIp: string) {
  return invoke(getNonce, httpEvent({ route: 'getNonce', pathParameters: { address }, sourceIp }))
}

/** Strangers' nonce requests for `address`, `count` in all, round robin over `clients`. */
async function strangersAsk(address: Address, clients: readonly string[], count: number) {
  const statuses: number[] = []
  // 15 at a time: a second's worth of the sustained attack in flight together.
  for (let start = 0; start < count; start += 15) {
    const batch = Array.from({ length: Math.min(15, count - start) }, (_, offset) =>
      requestNonce(address, clients[(start + offset) % clients.length] ?? ''),
    )
    statuses.push(...(await Promise.all(batch)).map((response) => response.status))
  }
  return statuses
}

/**
 * One sign-in of the owner from its own client: a nonce, `between` (the strangers' requests while
 * the owner confirms in its wallet app), then the login naming the nonce or not. Its status.
 */
async function ownerSignsIn(
  owner: ReturnType<typeof privateKeyToAccount>,
  ownerClient: string,
  variant: Variant,
  between: () => Promise<unknown>,
): Promise<number> {
  const issued = await requestNonce(owner.address, ownerClient)
  expect(issued.status).toBe(200)
  const { message, nonce } = issued.body.result as { message: string; nonce: number }
  const signature = await owner.signMessage({ message })
  await between()
  const body = {
    address: owner.address,
    signature,
    ...(variant === 'with `nonce`' && { nonce }),
  }
  const login = await invoke(
    loginWallet,
    httpEvent({ route: 'loginWallet', body, sourceIp: ownerClient }),
  )
  return login.status
}

describe('nonces no other client can evict (issue 39 row 1, DECISIONS §10.4)', () => {
  it.each(VARIANTS)(
    'signs the owner in %s after 60 nonce requests for its address from 30 other clients',
    async (variant) => {
      const owner = privateKeyToAccount(generatePrivateKey())
      const strangers = Array.from({ length: 30 }, uniqueClient)
      let strangerStatuses: number[] = []

      const status = await ownerSignsIn(owner, uniqueClient(), variant, async () => {
        strangerStatuses = await strangersAsk(owner.address, strangers, 60)
      })

      // Every stranger's request was served (none was held back by its own budget).
      expect(strangerStatuses).toEqual(Array.from({ length: 60 }, () => 200))
      expect(status).toBe(200)
    },
  )

  it.each(VARIANTS)(
    'signs the owner in 3 times of 3 %s while 34 clients ask nonces for its address at 15 a second, 5 s between nonce and signature',
    async (variant) => {
      const owner = privateKeyToAccount(generatePrivateKey())
      const ownerClient = uniqueClient()
      const strangers = Array.from({ length: 34 }, uniqueClient)
      const strangerStatuses: number[] = []
      const fiveSeconds = async () => {
        strangerStatuses.push(...(await strangersAsk(owner.address, strangers, 75)))
      }
      // The attack is under way before the owner starts.
      await fiveSeconds()

      const statuses: number[] = []
      for (let signIn = 0; signIn < 3; signIn++) {
        statuses.push(await ownerSignsIn(owner, ownerClient, variant, fiveSeconds))
      }

      expect(strangerStatuses).toEqual(Array.from({ length: 4 * 75 }, () => 200))
      expect(statuses).toEqual([200, 200, 200])
    },
  )
})
