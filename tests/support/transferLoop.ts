import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseAbi } from 'viem'
import { compileSolidity, type CompiledContract } from '../../lib/local/catalogTokenArtifact'

// TransferLoop.sol: real token transfers in a loop, a dust flood's contract. Compiled with the npm
// solc once, cached in .cache/solc (as the local stack's own contracts are).

let loop: Promise<CompiledContract> | undefined

export function loadTransferLoop(): Promise<CompiledContract> {
  loop ??= readFile(
    fileURLToPath(new URL('./contracts/TransferLoop.sol', import.meta.url)),
    'utf8',
  ).then((source) =>
    compileSolidity({ sourceName: 'TransferLoop.sol', source, contractName: 'TransferLoop' }),
  )
  return loop
}

export const transferLoopAbi = parseAbi([
  'function spray(address token, address to, uint256 value, uint256 count)',
])
