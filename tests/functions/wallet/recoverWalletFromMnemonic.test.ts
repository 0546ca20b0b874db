import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler as createWallet } from '../../../functions/wallet/createWallet'
import { handler } from '../../../functions/wallet/recoverWalletFromMnemonic'
import { httpEvent, invoke } from '../../support/httpEvent'

const ROUTE = 'POST /api/v1/wallet/recover/mnemonic'
const ANVIL = 'test test test test test test test test test test test junk'
// A valid phrase (BIP39 vector 7f7f…) whose words appear in none of our messages.
const VALID = 'legal winner thank year wave sausage worth useful legal winner thank yellow'

function recover(body: unknown) {
  return invoke(handler, httpEvent({ routeKey: ROUTE, body }))
}

describe('POST /v1/wallet/recover/mnemonic', () => {
  it.each([
    [ANVIL, undefined],
    [ANVIL, 7],
    [VALID, 0],
    [VALID, 2 ** 31 - 1],
  ])('recovers the wallet that create gives for the same input (%#)', async (mnemonic, index) => {
    const created = await invoke(
      createWallet,
      httpEvent({ route: 'createWallet', body: { mnemonic, index } }),
    )

    const recovered = await recover({ mnemonic, index })

    expect(created.status).toBe(200)
    expect(recovered).toEqual(created)
  })

  it('recovers anvil account 0 from a phrase typed with odd spacing and capitals', async () => {
    const response = await recover({
      mnemonic: ` Test TEST test test test test test test test test test\tJunk `,
    })

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
        },
      },
    })
  })

  it.each([
    [
      'legal winner thank year wave sausage worth useful legal winner thank',
      'a mnemonic has 12, 15, 18, 21 or 24 words; got 11',
    ],
    [
      'legal winner thxnk year wave sausage worth useful legal winner thank yellow',
      'word 3 is not in the BIP39 English list',
    ],
    [
      'legal winner thank year wave sausage worth useful legal winner thank zoo',
      "the mnemonic's checksum does not match",
    ],
  ])('answers 400 for an invalid phrase without quoting it (%#)', async (phrase, message) => {
    const response = await recover({ mnemonic: phrase })

    expect(response).toEqual({ status: 400, body: { ok: false, error: { code: 400, message } } })
    const text = JSON.stringify(response.body)
    for (const word of phrase.split(' ')) expect(text).not.toContain(word)
  })

  it('answers 400 for a field the route does not know', async () => {
    const response = await recover({ mnemonic: VALID, index: 0, network: 'ethereum' })

    expect(response).toEqual({
      status: 400,
      body: {
        ok: false,
        error: {
          code: 400,
          message: 'the request is not valid',
          details: [{ path: 'body', message: 'the body takes only mnemonic and index' }],
        },
      },
    })
  })
})
