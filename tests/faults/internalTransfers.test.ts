import '../support/env'
import { randomUUID } from 'node:crypto'
import { getAddress, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { listTrades } from '../../lib/db/trade'
import { markWalletsKnown } from '../../lib/db/wallet'
import { compileSolidity } from '../../lib/local/catalogTokenArtifact'
import { createTable } from '../../lib/local/localTable'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { devnet } from '../support/devnetAccounts'

// Native coin a contract sends on (an internal call), seen through `trace_block` where a network
// turns it on (DECISIONS §7.2; off by default): on for ethereum here, off for altchain. A table
// of its own keeps the deposit cursors away from the other files.

const FORWARDER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Forwarder {
  function forward(address payable to) external payable {
    (bool sent, ) = to.call{value: msg.value}("");
    require(sent, "not sent");
  }
}
`

const forwarders: Partial<Record<NetworkName, `0x${string}`>> = {}
let artifact: Awaited<ReturnType<typeof compileSolidity>>

beforeAll(async () => {
  const table = `internal-${randomUUID()}`
  await createTable(String(process.env.DYNAMODB_ENDPOINT), table)
  Object.assign(process.env, {
    TABLE_NAME: table,
    ETHEREUM_TRACE_INTERNAL: 'true',
    ALTCHAIN_TRACE_INTERNAL: 'false',
  })
  artifact = await compileSolidity({
    sourceName: 'Forwarder.sol',
    source: FORWARDER,
    contractName: 'Forwarder',
  })
  for (const network of NETWORK_NAMES) {
    const client = devnet(network)
    const deployer = privateKeyToAccount(generatePrivateKey())
    await client.setBalance({ address: deployer.address, value: parseEther('10') })
    const hash = await client.deployContract({
      account: deployer,
      chain: client.chain,
      abi: artifact.abi,
      bytecode: artifact.bytecode,
    })
    forwarders[network] = (await client.waitForTransactionReceipt({ hash })).contractAddress ?? '0x'
  }
}, 120_000)

/** A stranger sends 1.5 coins through the forwarder to `to`; resolves once mined. */
async function forwardTo(network: NetworkName, to: `0x${string}`) {
  const client = devnet(network)
  const stranger = privateKeyToAccount(generatePrivateKey())
  await client.setBalance({ address: stranger.address, value: parseEther('10') })
  const hash = await client.writeContract({
    account: stranger,
    chain: client.chain,
    address: forwarders[network] ?? '0x',
    abi: artifact.abi,
    functionName: 'forward',
    args: [to],
    value: parseEther('1.5'),
  })
  return client.waitForTransactionReceipt({ hash })
}

async function depositsOf(wallet: `0x${string}`) {
  const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'DESC' })
  return trades.filter((trade) => trade.type === 'deposit')
}

describe('internal transfers of the native coin', () => {
  it('records one sent by a contract once, where the network reads traces', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    await markWalletsKnown([wallet])
    await indexDeposits({ networks: ['ethereum'] })
    const receipt = await forwardTo('ethereum', wallet)

    await indexDeposits({ networks: ['ethereum'] })
    await indexDeposits({ networks: ['ethereum'] })

    expect(await depositsOf(wallet)).toEqual([
      expect.objectContaining({
        hash: receipt.transactionHash,
        amount: '1.5',
        isNativeTransfer: true,
        from: getAddress(forwarders.ethereum ?? '0x'),
        status: 'successful',
      }),
    ])
  })

  it('does not see it where traces are off (the default)', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    await markWalletsKnown([wallet])
    await indexDeposits({ networks: ['altchain'] })
    await forwardTo('altchain', wallet)

    await indexDeposits({ networks: ['altchain'] })

    expect(await depositsOf(wallet)).toEqual([])
  })
})
