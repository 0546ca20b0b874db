import { generateMnemonic, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { BadRequest } from '../errors'

const WORD_COUNTS = [12, 15, 18, 21, 24]
const WORDS = new Set(wordlist)

/** NFKD, trimmed, single spaces, lower case: how a user may type a phrase is not its identity. */
export function normaliseMnemonic(phrase: string): string {
  return phrase.normalize('NFKD').trim().split(/\s+/u).join(' ').toLowerCase()
}

/**
 * The normalised phrase, or a BadRequest naming what is wrong: the word count, the position of
 * an unknown word, or the checksum. Messages never quote the phrase or any of its words.
 */
export function parseMnemonic(phrase: string): string {
  const mnemonic = normaliseMnemonic(phrase)
  const words = mnemonic === '' ? [] : mnemonic.split(' ')
  if (!WORD_COUNTS.includes(words.length)) {
    throw new BadRequest(`a mnemonic has 12, 15, 18, 21 or 24 words; got ${words.length}`)
  }
  const unknown = words.findIndex((word) => !WORDS.has(word))
  if (unknown >= 0) {
    throw new BadRequest(`word ${unknown + 1} is not in the BIP39 English list`)
  }
  if (!validateMnemonic(mnemonic, wordlist)) {
    throw new BadRequest("the mnemonic's checksum does not match")
  }
  return mnemonic
}

/** 12 English words from 128 bits of the platform CSPRNG. */
export function randomMnemonic(): string {
  return generateMnemonic(wordlist, 128)
}
