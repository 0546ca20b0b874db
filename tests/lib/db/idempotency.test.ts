import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { createHash, randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { db, tableName } from '../../../lib/db/client'
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_TTL_SECONDS,
  releaseIdempotencyKey,
} from '../../../lib/db/idempotency'
import { idempotencyKey } from '../../../lib/db/keys'

const TX = `0x${'ab'.repeat(32)}` as const
const wallet = () => privateKeyToAccount(generatePrivateKey()).address

describe('Idempotency-Key records (DynamoDB Local)', () => {
  it('claims a key once; the second claim sees the running request, then its transaction', async () => {
    const scope = { wallet: wallet(), key: randomUUID() }

    const first = await claimIdempotencyKey({ ...scope, fingerprint: 'f1' })
    const whileRunning = await claimIdempotencyKey({ ...scope, fingerprint: 'f1' })
    await completeIdempotencyKey({ ...scope, txId: TX })
    const afterwards = await claimIdempotencyKey({ ...scope, fingerprint: 'f2' })

    expect(first).toBeUndefined()
    expect(whileRunning).toEqual({ status: 'in_progress', fingerprint: 'f1' })
    expect(afterwards).toEqual({ status: 'completed', fingerprint: 'f1', txId: TX })
  })

  it('scopes keys to the wallet, in lower case, with the client key hashed', async () => {
    const key = `order-${randomUUID()}`
    const owner = wallet()

    await claimIdempotencyKey({ wallet: owner, key, fingerprint: 'a' })
    const other = await claimIdempotencyKey({ wallet: wallet(), key, fingerprint: 'b' })
    const sameWalletOtherCase = await claimIdempotencyKey({
      wallet: owner.toLowerCase(),
      key,
      fingerprint: 'a',
    })

    const hash = createHash('sha256').update(key).digest('hex')
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: idempotencyKey(owner, hash) }),
    )
    expect(other).toBeUndefined()
    expect(sameWalletOtherCase?.status).toBe('in_progress')
    expect(Item).toMatchObject({
      pk: `IDEMPOTENCY#${owner.toLowerCase()}`,
      sk: `KEY#${hash}`,
      status: 'in_progress',
    })
    expect(JSON.stringify(Item)).not.toContain(key)
    expect(Number(Item?.expiresAt) - Math.floor(Date.now() / 1000)).toBeGreaterThan(
      IDEMPOTENCY_TTL_SECONDS - 60,
    )
  })

  it('frees a running key on release, but never a completed one', async () => {
    const running = { wallet: wallet(), key: randomUUID() }
    const done = { wallet: wallet(), key: randomUUID() }
    await claimIdempotencyKey({ ...running, fingerprint: 'f' })
    await claimIdempotencyKey({ ...done, fingerprint: 'f' })
    await completeIdempotencyKey({ ...done, txId: TX })

    await releaseIdempotencyKey(running)
    const refused = await releaseIdempotencyKey(done).catch((error: Error) => error.name)

    expect(await claimIdempotencyKey({ ...running, fingerprint: 'g' })).toBeUndefined()
    expect(refused).toBe('ConditionalCheckFailedException')
    expect(await claimIdempotencyKey({ ...done, fingerprint: 'f' })).toMatchObject({ txId: TX })
  })

  it('treats a record past its expiry as absent, as the TTL would have deleted it', async () => {
    const scope = { wallet: wallet(), key: randomUUID() }
    const dayAgo = new Date(Date.now() - (IDEMPOTENCY_TTL_SECONDS + 1) * 1000)
    await claimIdempotencyKey({ ...scope, fingerprint: 'old', now: dayAgo })

    expect(await claimIdempotencyKey({ ...scope, fingerprint: 'new' })).toBeUndefined()
  })

  it('lets exactly one of concurrent claims through', async () => {
    const scope = { wallet: wallet(), key: randomUUID() }

    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimIdempotencyKey({ ...scope, fingerprint: 'f' })),
    )

    expect(claims.filter((claim) => claim === undefined)).toHaveLength(1)
  })
})
