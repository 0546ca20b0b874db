import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseAbi } from 'viem'
import { compileSolidity, type CompiledContract } from '../../lib/local/catalogTokenArtifact'

// TransferEmitter.sol: compiled with the npm solc, once, cached in .cache/solc (as the local
// stack's own contracts are).

const SOURCE_NAME = 'TransferEmitter.sol'

async function compile(contractName: 'TransferEmitter' | 'TransferStream') {
  const source = await readFile(
    fileURLToPath(new URL(`./contracts/${SOURCE_NAME}`, import.meta.url)),
    'utf8',
  )
  return compileSolidity({ sourceName: SOURCE_NAME, source, contractName })
}

let emitter: Promise<CompiledContract> | undefined
let stream: Promise<CompiledContract> | undefined

export const loadTransferEmitter = () => (emitter ??= compile('TransferEmitter'))
export const loadTransferStream = () => (stream ??= compile('TransferStream'))

/** The functions the tests call, typed (solc's ABI is a plain `Abi`). */
export const transferEmitterAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function decimals() pure returns (uint8)',
  'function emitTransfers(address from, address to, uint256 value, uint256 count, bool spread)',
])

export const transferStreamAbi = parseAbi([
  'function emitEach(address[] tokens, address from, address[] recipients, uint256 value)',
])
