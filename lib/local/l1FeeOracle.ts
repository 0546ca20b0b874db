import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { numberToHex, pad, type TestClient } from 'viem'
import { setCode, setStorageAt } from 'viem/actions'
import { NETWORK_ENTRIES } from '../networks'
import type { NetworkName } from '../networkNames'
import { compileSolidity } from './catalogTokenArtifact'

// An L2-shaped devnet's L1 data fee (DECISIONS §10.2): the network table's `l1Fee` names the
// OP Stack's GasPriceOracle predeploy; anvil has none, so the devnet gets our stand-in
// (GasPriceOracle.sol: the Ecotone formula, its parameters in its own storage) at that address.
// The node never charges the fee (anvil deducts no L1 fee); the quote asks the oracle for it.

const SOURCE_NAME = 'GasPriceOracle.sol'

/** The stand-in oracle's runtime code (compiled like lib/local's other contracts). */
export async function gasPriceOracleCode(): Promise<`0x${string}`> {
  const source = await readFile(fileURLToPath(new URL(`./${SOURCE_NAME}`, import.meta.url)), 'utf8')
  const artifact = await compileSolidity({
    sourceName: SOURCE_NAME,
    source,
    contractName: 'GasPriceOracle',
  })
  return artifact.deployedBytecode
}

/**
 * Sets the network's GasPriceOracle (code and its four parameters, slots 0-3 in declaration
 * order) on its devnet; nothing on a network without an L1 fee.
 */
export async function installL1FeeOracle(
  client: TestClient<'anvil'>,
  network: NetworkName,
): Promise<void> {
  const l1Fee = NETWORK_ENTRIES[network].l1Fee
  if (!l1Fee) return
  const { l1BaseFeeWei, blobBaseFeeWei, baseFeeScalar, blobBaseFeeScalar } = l1Fee.devnet
  const address = l1Fee.oracle
  await setCode(client, { address, bytecode: await gasPriceOracleCode() })
  const slots = [l1BaseFeeWei, blobBaseFeeWei, BigInt(baseFeeScalar), BigInt(blobBaseFeeScalar)]
  await Promise.all(
    slots.map((value, index) =>
      setStorageAt(client, {
        address,
        index: numberToHex(index, { size: 32 }),
        value: pad(numberToHex(value), { size: 32 }),
      }),
    ),
  )
}
