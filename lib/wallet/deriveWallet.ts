import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { bytesToHex } from 'viem'
import { parseMnemonic } from './mnemonic'
import { type Wallet, walletFromKey } from './walletFromKey'

export interface DeriveWalletParameters {
  /** As the user typed it: normalised and validated here. */
  mnemonic: string
  /** The last component of m/44'/60'/0'/0/{index}, 0..2^31-1. */
  index: number
}

/** The Ethereum wallet at m/44'/60'/0'/0/{index} of a BIP39 phrase (no passphrase). */
export function deriveWallet({ mnemonic, index }: DeriveWalletParameters): Wallet {
  const seed = mnemonicToSeedSync(parseMnemonic(mnemonic))
  const root = HDKey.fromMasterSeed(seed)
  const child = root.derive(`m/44'/60'/0'/0/${index}`)
  const privateKey = child.privateKey
  if (!privateKey) throw new Error('a key derived from a seed always has a private part')
  const wallet = walletFromKey(bytesToHex(privateKey))
  // Zero the byte buffers (privateKey is a copy) once used, so they do not linger in the heap;
  // strings cannot be zeroed.
  seed.fill(0)
  privateKey.fill(0)
  child.wipePrivateData()
  root.wipePrivateData()
  return wallet
}
