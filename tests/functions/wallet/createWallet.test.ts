import '../../support/env'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/wallet/createWallet'
import { httpEvent, invoke } from '../../support/httpEvent'

const ROUTE = 'POST /api/v1/wallet/create'

interface AnvilAccounts {
  mnemonic: string
  accounts: { index: number; address: string; privateKey: string }[]
}

// CI clones the repository with shared/ beside it.
const anvil = JSON.parse(
  readFileSync(join(process.cwd(), '..', 'shared', 'vectors', 'ethereum-hd-anvil.json'), 'utf8'),
) as AnvilAccounts

// A valid phrase (BIP39 vector 7f7f…) whose words appear in none of our messages.
const VALID = 'legal winner thank year wave sausage worth useful legal winner thank yellow'

function create(body: unknown) {
  return invoke(handler, httpEvent({ routeKey: ROUTE, body }))
}

function expectNoEcho(body: unknown, phrase: string) {
  const text = JSON.stringify(body)
  expect(text).not.toContain(phrase)
  for (const word of phrase.split(' ')) expect(text).not.toContain(word)
}

describe('POST /v1/wallet/create', () => {
  it.each(anvil.accounts.map((account) => [account.index, account] as const))(
    'derives anvil account %i of the test mnemonic',
    async (index, account) => {
      const response = await create({ mnemonic: anvil.mnemonic, index })

      expect(response).toEqual({
        status: 200,
        body: { ok: true, result: { address: account.address, privateKey: account.privateKey } },
      })
    },
  )

  it('derives index 0 when no index is given', async () => {
    const response = await create({ mnemonic: anvil.mnemonic })

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

  it('derives the largest non-hardened index, 2^31 - 1', async () => {
    const response = await create({ mnemonic: anvil.mnemonic, index: 2 ** 31 - 1 })

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          privateKey: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
      },
    })
  })

  it('gives the same wallet whatever the whitespace and case of the phrase', async () => {
    const typed = `\n  TEST test\tTest  test test\u00a0test test test test test test   JUNK \r\n`

    const response = await create({ mnemonic: typed, index: 1 })

    expect(response.body).toEqual({
      ok: true,
      result: { address: anvil.accounts[1]?.address, privateKey: anvil.accounts[1]?.privateKey },
    })
  })

  describe('an invalid phrase', () => {
    it('answers 400 naming the word count', async () => {
      const phrase = 'legal winner thank year wave sausage worth useful legal winner thank'

      const response = await create({ mnemonic: phrase })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: { code: 400, message: 'a mnemonic has 12, 15, 18, 21 or 24 words; got 11' },
        },
      })
      expectNoEcho(response.body, phrase)
    })

    it('answers 400 naming the position of an unknown word', async () => {
      const phrase = 'legal winner thxnk year wave sausage worth useful legal winner thank yellow'

      const response = await create({ mnemonic: phrase })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: { code: 400, message: 'word 3 is not in the BIP39 English list' },
        },
      })
      expectNoEcho(response.body, phrase)
    })

    it('answers 400 when the checksum does not match', async () => {
      const phrase = 'legal winner thank year wave sausage worth useful legal winner thank zoo'

      const response = await create({ mnemonic: phrase })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: { code: 400, message: "the mnemonic's checksum does not match" },
        },
      })
      expectNoEcho(response.body, phrase)
    })
  })

  describe('an invalid body', () => {
    it.each([
      ['-1', -1],
      ['2^31', 2 ** 31],
      ['1.5', 1.5],
      ['a string', '0'],
    ])('answers 400 for index %s', async (_case, index) => {
      const response = await create({ mnemonic: VALID, index })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: [{ path: 'body.index', message: expect.any(String) }],
          },
        },
      })
      expectNoEcho(response.body, VALID)
    })

    it('answers 400 naming a missing mnemonic', async () => {
      const response = await create({ index: 0 })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: [{ path: 'body.mnemonic', message: expect.any(String) }],
          },
        },
      })
    })

    it('answers 400 for a mnemonic that is not a string, without quoting it', async () => {
      const words = VALID.split(' ')

      const response = await create({ mnemonic: words })

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: [{ path: 'body.mnemonic', message: expect.any(String) }],
          },
        },
      })
      expectNoEcho(response.body, VALID)
    })

    it.each([
      ['a passphrase', { mnemonic: VALID, passphrase: 'extra' }],
      ['the phrase as a field name', { [VALID]: '', index: 0 }],
    ])('answers 400 for a field the route does not know: %s', async (_case, body) => {
      const response = await create(body)

      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: expect.arrayContaining([
              { path: 'body', message: 'the body takes only mnemonic and index' },
            ]),
          },
        },
      })
      expectNoEcho(response.body, VALID)
    })

    it('answers 400 for malformed JSON, without quoting it', async () => {
      const event = httpEvent({ routeKey: ROUTE, rawBody: `{"mnemonic": "${VALID}", ` })

      const response = await invoke(handler, event)

      expect(response).toEqual({
        status: 400,
        body: { ok: false, error: { code: 400, message: 'the body is not valid JSON' } },
      })
      expectNoEcho(response.body, VALID)
    })
  })
})
