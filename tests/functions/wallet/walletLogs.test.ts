import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler as createWallet } from '../../../functions/wallet/createWallet'
import { handler as generateMnemonic } from '../../../functions/wallet/generateMnemonic'
import { handler as recoverWalletFromKey } from '../../../functions/wallet/recoverWalletFromKey'
import { handler as recoverWalletFromMnemonic } from '../../../functions/wallet/recoverWalletFromMnemonic'
import { captureLogs } from '../../support/captureLogs'
import { httpEvent, invoke } from '../../support/httpEvent'

const ANVIL = 'test test test test test test test test test test test junk'
const ELEVEN = 'legal winner thank year wave sausage worth useful legal winner thank'
const UNKNOWN_WORD = 'legal winner thxnk year wave sausage worth useful legal winner thank yellow'
const BAD_CHECKSUM = 'legal winner thank year wave sausage worth useful legal winner thank zoo'
const KEY_HEX = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const ORDER_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'

type Handler = Parameters<typeof invoke>[0]

describe('wallet routes and the log', () => {
  const logs = captureLogs('DEBUG')

  it('writes no mnemonic and no private key, on success or failure, at DEBUG', async () => {
    const phrases = [ANVIL, ELEVEN, UNKNOWN_WORD, BAD_CHECKSUM]
    const keys = [KEY_HEX, ORDER_HEX]
    const calls: [Handler, string, unknown][] = []
    const call = async (handler: Handler, routeKey: string, body?: unknown, rawBody?: string) => {
      calls.push([handler, routeKey, body])
      const event = httpEvent({ routeKey, body, ...(rawBody !== undefined && { rawBody }) })
      return invoke(handler, event)
    }

    const generated = await call(generateMnemonic, 'GET /api/v1/wallet/mnemonic')
    const { mnemonic } = generated.body.result as { mnemonic: string }
    phrases.push(mnemonic)
    for (const phrase of phrases) {
      for (const route of [
        [createWallet, 'POST /api/v1/wallet/create'],
        [recoverWalletFromMnemonic, 'POST /api/v1/wallet/recover/mnemonic'],
      ] as const) {
        const response = await call(route[0], route[1], { mnemonic: ` ${phrase.toUpperCase()} ` })
        const result = response.body.result as { privateKey?: string } | undefined
        if (result?.privateKey) keys.push(result.privateKey.slice(2))
        await call(route[0], route[1], { mnemonic: phrase, index: -1 })
        await call(route[0], route[1], { mnemonic: phrase, extra: phrase })
        await call(route[0], route[1], undefined, `{"mnemonic": "${phrase}"`)
      }
    }
    for (const key of keys) {
      await call(recoverWalletFromKey, 'POST /api/v1/wallet/recover/key', { privateKey: key })
      await call(recoverWalletFromKey, 'POST /api/v1/wallet/recover/key', {
        privateKey: `0x${key}0`,
      })
      await call(recoverWalletFromKey, 'POST /api/v1/wallet/recover/key', { privateKey: key, key })
      await call(
        recoverWalletFromKey,
        'POST /api/v1/wallet/recover/key',
        undefined,
        `{"privateKey":"${key}`,
      )
    }

    const lines = logs.lines()
    const log = lines.join('\n').toLowerCase()
    // The hook works: every request left its access line, one each.
    expect(lines.filter((line) => line.includes('"message":"request"'))).toHaveLength(calls.length)
    expect(keys.length).toBeGreaterThanOrEqual(4)
    for (const phrase of phrases) {
      const words = phrase.split(' ')
      expect(log).not.toContain(phrase)
      // Any two words in a row, so no fragment of a phrase slips out either.
      for (let i = 1; i < words.length; i += 1) {
        expect(log).not.toContain(`${words[i - 1]} ${words[i]}`)
      }
    }
    for (const key of keys) expect(log).not.toContain(key.toLowerCase())
  })
})
