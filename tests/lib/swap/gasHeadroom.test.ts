import { erc20Abi, maxUint256, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../../lib/local/catalogTokenArtifact'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  defineDevnetChain,
  deployDex,
} from '../../../lib/local/deployDex'
import { uniswapV2Router02Abi } from '../../../lib/local/uniswapV2Artifacts'
import { withHeadroom } from '../../../lib/send/gasLimit'
import {
  ownDevnetClient,
  type RestartableAnvil,
  startRestartableAnvil,
} from '../../support/faultEngines'

// Why every gas limit the service signs (and every test wallet, tests/support/devnetTransport.ts)
// is the estimate with headroom: a V2 swap estimated in the same second as its pool's last update
// skips the pair's price-accumulator writes, which it makes once the block time has moved. A
// devnet of this file's own, since it moves the clock.

const swapAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

let anvil: RestartableAnvil
let dex: DexDeployment
let client: ReturnType<typeof clientOf>

function clientOf(rpcUrl: string) {
  return ownDevnetClient(
    rpcUrl,
    defineDevnetChain({ network: 'ethereum', chainId: DEVNET_CHAIN_IDS.ethereum, rpcUrl }),
    privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
  )
}

beforeAll(async () => {
  anvil = await startRestartableAnvil({ chainId: DEVNET_CHAIN_IDS.ethereum })
  dex = await deployDex({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, network: 'ethereum' })
  client = clientOf(anvil.rpcUrl)
})

afterAll(async () => {
  await anvil?.close()
})

/** A token pooled with 10 coins, the pool's last update in the block just mined. */
async function freshPool() {
  const owner = client.account.address
  const mined = async (hash: `0x${string}`) => client.waitForTransactionReceipt({ hash })
  const artifact = await loadCatalogTokenArtifact()
  const deployed = await mined(
    await client.deployContract({
      abi: catalogTokenAbi,
      bytecode: artifact.bytecode,
      args: ['Fresh', 'FRESH', 18, parseEther('1000000'), owner],
    }),
  )
  const token = deployed.contractAddress ?? '0x'
  await mined(
    await client.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [dex.router, maxUint256],
    }),
  )
  await mined(
    await client.writeContract({
      address: dex.router,
      abi: uniswapV2Router02Abi,
      functionName: 'addLiquidityETH',
      args: [token, parseEther('10000'), 0n, 0n, owner, maxUint256],
      value: parseEther('10'),
    }),
  )
  return token
}

/** Estimates a 1-coin buy now, lets 5 s pass, then sends it with the limit `gasFor(estimate)`. */
async function buyAfterTheClockMoves(gasFor: (estimate: bigint) => bigint) {
  const token = await freshPool()
  const swap = {
    address: dex.router,
    abi: swapAbi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [dex.wrappedNative, token], client.account.address, maxUint256],
    value: parseEther('1'),
  } as const
  // Estimated on the pool's own block (as a wallet estimating within that second would), and
  // mined in a block stamped 5 s later, however fast or slow the machine is.
  const { timestamp } = await client.getBlock()
  const estimate = await client.estimateContractGas({
    ...swap,
    account: client.account,
    blockTag: 'latest',
  })
  await client.setNextBlockTimestamp({ timestamp: timestamp + 5n })
  const hash = await client.writeContract({ ...swap, gas: gasFor(estimate) })
  return { estimate, receipt: await client.waitForTransactionReceipt({ hash }) }
}

describe('the gas limit of a swap in a pool updated the same second', () => {
  it('runs out with the bare estimate once the block time has moved', async () => {
    const { receipt } = await buyAfterTheClockMoves((estimate) => estimate)

    expect(receipt.status).toBe('reverted')
  })

  it('succeeds with the headroom the service adds', async () => {
    const { estimate, receipt } = await buyAfterTheClockMoves(withHeadroom)

    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBeGreaterThan(estimate)
  })
})
