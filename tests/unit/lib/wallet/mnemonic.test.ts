import '../../../support/env'
import { HDKey } from '@scure/bip32'
import { entropyToMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bytesToHex, hexToBytes } from 'viem'
import { describe, expect, it } from 'vitest'
import { BadRequest } from '../../../../lib/errors'
import { normaliseMnemonic, parseMnemonic, randomMnemonic } from '../../../../lib/wallet/mnemonic'

interface Bip39Vector {
  entropy: string
  mnemonic: string
  seed: string
  xprv: string
}

// CI clones the repository with shared/ beside it.
const { vectors } = JSON.parse(
  readFileSync(join(process.cwd(), '..', 'shared', 'vectors', 'bip39-english.json'), 'utf8'),
) as { vectors: Bip39Vector[] }

// A valid phrase (BIP39 vector 7f7f…) whose words appear in none of our messages.
const VALID = 'legal winner thank year wave sausage worth useful legal winner thank yellow'

function problemOf(phrase: string): string {
  try {
    parseMnemonic(phrase)
  } catch (error) {
    if (error instanceof BadRequest) return error.message
    throw error
  }
  throw new Error('the phrase was accepted')
}

describe('BIP39 English vectors (trezor/python-mnemonic)', () => {
  it.each(vectors.map((vector) => [vector.entropy, vector] as const))(
    'entropy %s gives the mnemonic, seed (passphrase TREZOR) and root xprv',
    (_entropy, vector) => {
      const mnemonic = entropyToMnemonic(hexToBytes(`0x${vector.entropy}`), wordlist)
      const seed = mnemonicToSeedSync(mnemonic, 'TREZOR')

      expect(mnemonic).toBe(vector.mnemonic)
      expect(bytesToHex(seed)).toBe(`0x${vector.seed}`)
      expect(HDKey.fromMasterSeed(seed).privateExtendedKey).toBe(vector.xprv)
      expect(parseMnemonic(vector.mnemonic)).toBe(vector.mnemonic)
    },
  )
})

describe('normaliseMnemonic', () => {
  it('trims, collapses any whitespace to single spaces and lower-cases', () => {
    const typed = `  Legal\tWINNER  thank\n\nyear wave\u00a0sausage worth\u3000useful legal winner thank YELLOW \r\n`

    expect(normaliseMnemonic(typed)).toBe(VALID)
  })

  it('applies NFKD, so composed and decomposed forms are one phrase', () => {
    expect(normaliseMnemonic('caf\u00e9')).toBe('cafe\u0301')
    expect(normaliseMnemonic('\uff4c\uff45\uff47\uff41\uff4c')).toBe('legal')
  })
})

describe('parseMnemonic', () => {
  // The published vectors hold 12, 18 and 24 words; 15 and 21 come from fresh entropy.
  it.each([16, 20, 24, 28, 32])('accepts a phrase from %i bytes of entropy', (bytes) => {
    const mnemonic = entropyToMnemonic(randomBytes(bytes), wordlist)

    expect(mnemonic.split(' ')).toHaveLength((bytes * 3) / 4)
    expect(parseMnemonic(mnemonic)).toBe(mnemonic)
  })

  it('returns the normalised phrase when it is valid', () => {
    expect(parseMnemonic(` ${VALID.toUpperCase()}  `)).toBe(VALID)
  })

  it.each([
    ['', 0],
    ['   ', 0],
    ['legal winner thank year wave sausage worth useful legal winner thank', 11],
    [`${VALID} yellow`, 13],
    [`${VALID} ${VALID} yellow`, 25],
  ])('names the word count when it is not 12, 15, 18, 21 or 24 (%#)', (phrase, count) => {
    expect(problemOf(phrase)).toBe(`a mnemonic has 12, 15, 18, 21 or 24 words; got ${count}`)
  })

  it('names the position of the first unknown word, not the word', () => {
    const message = problemOf(
      'legal winner thxnk year wave sausage worth useful legal wxnner thank yellow',
    )

    expect(message).toBe('word 3 is not in the BIP39 English list')
  })

  it('rejects a phrase whose checksum does not match', () => {
    const message = problemOf(
      'legal winner thank year wave sausage worth useful legal winner thank zoo',
    )

    expect(message).toBe("the mnemonic's checksum does not match")
  })
})

describe('randomMnemonic', () => {
  it('gives 12 English words with a valid checksum, different each time', () => {
    const first = randomMnemonic()
    const second = randomMnemonic()
    const words = first.split(' ')

    expect(words).toHaveLength(12)
    expect(words.every((word) => wordlist.includes(word))).toBe(true)
    expect(validateMnemonic(first, wordlist)).toBe(true)
    expect(parseMnemonic(first)).toBe(first)
    expect(second).not.toBe(first)
  })
})
