import '../../support/env'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/wallet/generateMnemonic'
import { handler as createWallet } from '../../../functions/wallet/createWallet'
import { httpEvent, invoke } from '../../support/httpEvent'

const ROUTE = 'GET /api/v1/wallet/mnemonic'

async function generate(): Promise<string> {
  const response = await invoke(handler, httpEvent({ routeKey: ROUTE }))
  expect(response).toEqual({
    status: 200,
    body: { ok: true, result: { mnemonic: expect.any(String) } },
  })
  return (response.body.result as { mnemonic: string }).mnemonic
}

describe('GET /v1/wallet/mnemonic', () => {
  it('answers 12 English words separated by single spaces, with a valid checksum', async () => {
    const mnemonic = await generate()
    const words = mnemonic.split(' ')

    expect(words).toHaveLength(12)
    expect(words.every((word) => wordlist.includes(word))).toBe(true)
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true)
  })

  it('answers a different phrase on every call', async () => {
    const phrases = await Promise.all([generate(), generate(), generate()])

    expect(new Set(phrases).size).toBe(3)
  })

  it('answers a phrase that the create route accepts', async () => {
    const mnemonic = await generate()

    const created = await invoke(
      createWallet,
      httpEvent({ route: 'createWallet', body: { mnemonic } }),
    )

    expect(created.status).toBe(200)
  })
})
