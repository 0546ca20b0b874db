import '../../support/env'
import {
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  publicActions,
  serializeErc6492Signature,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { CREDENTIAL_WINDOW_SECONDS, MAX_CREDENTIAL_CHECKS } from '../../../lib/auth/attemptBudget'
import { CONTRACT_CHECK_GAS } from '../../../lib/auth/siwe'
import { db, tableName } from '../../../lib/db/client'
import { attemptWindowKey, clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { chainOf } from '../../../lib/chain/clients'
import { loadChainConfig, loadClientLimitConfig } from '../../../lib/config'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { httpEvent, invoke } from '../../support/httpEvent'
import { uniqueClient } from '../../support/uniqueClient'
import { clearOfWindowEnd } from '../../support/windowEdge'

// The smallest EIP-1271 wallet: a contract that accepts what its owner signed.
const MINIMAL_1271_WALLET = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
contract Minimal1271Wallet {
  address public immutable owner;
  constructor(address owner_) { owner = owner_; }
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
    return error == ECDSA.RecoverError.NoError && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}

// A hostile "wallet" whose check burns all the gas it is given.
contract GasBurningWallet {
  uint256 private counter;
  function isValidSignature(bytes32, bytes calldata) external returns (bytes4) {
    while (true) { counter += 1; }
    return bytes4(0x1626ba7e);
  }
}
`

const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
let walletAddress: `0x${string}`
let burnerAddress: `0x${string}`

// Deployed by a fresh account funded through anvil, so no other test's nonces are touched.
beforeAll(async () => {
  const config = loadChainConfig('ethereum')
  const chain = chainOf(config)
  const deployer = privateKeyToAccount(generatePrivateKey())
  const anvil = createTestClient({ mode: 'anvil', chain, transport: http(config.rpcUrl) })
  await anvil.setBalance({ address: deployer.address, value: parseEther('10') })
  const artifact = await compileSolidity({
    sourceName: 'Minimal1271Wallet.sol',
    source: MINIMAL_1271_WALLET,
    contractName: 'Minimal1271Wallet',
  })
  const burner = await compileSolidity({
    sourceName: 'Minimal1271Wallet.sol',
    source: MINIMAL_1271_WALLET,
    contractName: 'GasBurningWallet',
  })
  const client = createWalletClient({
    account: deployer,
    chain,
    transport: http(config.rpcUrl),
  }).extend(publicActions)
  const hash = await client.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [owner.address],
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  walletAddress = receipt.contractAddress ?? '0x'
  const burnerHash = await client.deployContract({ abi: burner.abi, bytecode: burner.bytecode })
  burnerAddress =
    (await client.waitForTransactionReceipt({ hash: burnerHash })).contractAddress ?? '0x'
})

/**
 * A deployed contract wallet's EIP-1271 signature, sent ERC-6492-wrapped (no factory: the wallet
 * exists), as DECISIONS §7.1 asks of signatures that are not a plain EOA's 65 bytes.
 */
async function signInAsContract(
  signer: typeof owner,
  {
    address = walletAddress,
    wrap = true,
    sourceIp,
  }: { address?: `0x${string}`; wrap?: boolean; sourceIp?: string } = {},
) {
  const nonce = await invoke(
    getNonce,
    httpEvent({ route: 'getNonce', pathParameters: { address } }),
  )
  const { message, nonce: issued } = nonce.body.result as { message: string; nonce: number }
  const ownerSignature = await signer.signMessage({ message })
  const signature = wrap
    ? serializeErc6492Signature({ address: zeroAddress, data: '0x', signature: ownerSignature })
    : ownerSignature
  return invoke(
    loginWallet,
    httpEvent({ route: 'loginWallet', body: { address, signature, nonce: issued }, sourceIp }),
  )
}

/** A client's source address of its own: a test's budgets are never another test's. */
const newClient = uniqueClient

/** The RPC calls made while `run` runs, by method. */
async function rpcCallsDuring(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const onRpcRequest = (text: unknown) => {
    const body = typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined
    for (const call of [body].flat() as Array<{ method?: string }>) {
      if (call?.method) counts[call.method] = (counts[call.method] ?? 0) + 1
    }
  }
  rpcRequestChannel.subscribe(onRpcRequest)
  try {
    await run()
  } finally {
    rpcRequestChannel.unsubscribe(onRpcRequest)
  }
  return counts
}

/** The `gas` of every eth_call the node is sent while `run` runs. */
async function ethCallGasDuring(run: () => Promise<unknown>): Promise<bigint[]> {
  const gas: bigint[] = []
  const onRpcRequest = (text: unknown) => {
    const body = typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined
    for (const call of [body].flat() as Array<{ method?: string; params?: [{ gas?: string }] }>) {
      if (call?.method === 'eth_call') gas.push(BigInt(call.params?.[0]?.gas ?? '0xffffffffff'))
    }
  }
  rpcRequestChannel.subscribe(onRpcRequest)
  try {
    await run()
  } finally {
    rpcRequestChannel.unsubscribe(onRpcRequest)
  }
  return gas
}

describe('wallet sign-in for a contract wallet (EIP-1271, ERC-6492-wrapped)', () => {
  it("logs in when the contract accepts its owner's signature", async () => {
    const response = await signInAsContract(owner)

    expect(response.status).toBe(200)
    expect(response.body.result).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
    })
  })

  it("signs a contract wallet in with its owner's unwrapped 65-byte ERC-1271 signature: recovery first, then eth_getCode and the check on chain (issue 39)", async () => {
    let response: Awaited<ReturnType<typeof signInAsContract>> | undefined
    const calls = await rpcCallsDuring(async () => {
      response = await signInAsContract(owner, { wrap: false })
    })

    expect(response).toEqual({
      status: 200,
      body: { ok: true, result: { access: expect.any(String), refresh: expect.any(String) } },
    })
    expect(calls).toEqual({ eth_getCode: 1, eth_call: 1 })
  })

  it("signs a contract wallet in with a 65-byte signature without `nonce`, against its client's newest nonce", async () => {
    const client = newClient()
    const issued = await invoke(
      getNonce,
      httpEvent({
        route: 'getNonce',
        pathParameters: { address: walletAddress },
        sourceIp: client,
      }),
    )
    const { message } = issued.body.result as { message: string }
    const signature = await owner.signMessage({ message })

    const response = await invoke(
      loginWallet,
      httpEvent({
        route: 'loginWallet',
        body: { address: walletAddress, signature },
        sourceIp: client,
      }),
    )

    expect(response.status).toBe(200)
  })

  it("refuses a stranger's 65-byte signature for a contract wallet with 401004, as one of its client's 5 checks of the wallet", async () => {
    await clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 60)
    const client = newClient()
    const response = await signInAsContract(stranger, { wrap: false, sourceIp: client })

    expect(response.body.error?.code).toBe(401004)
    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: attemptWindowKey(
          'wallet',
          walletAddress,
          client,
          windowOf(CREDENTIAL_WINDOW_SECONDS).startsAt,
        ),
        ConsistentRead: true,
      }),
    )
    expect(Item?.count).toBe(1)
  })

  it('caps the on-chain check of a gas-burning wallet at 1,000,000 gas and answers 401004', async () => {
    let response: Awaited<ReturnType<typeof signInAsContract>> | undefined
    const gas = await ethCallGasDuring(async () => {
      response = await signInAsContract(owner, { address: burnerAddress })
    })

    expect(response?.body.error?.code).toBe(401004)
    expect(gas.length).toBeGreaterThan(0)
    for (const limit of gas) expect(limit).toBeLessThanOrEqual(CONTRACT_CHECK_GAS)
  })

  it('answers 401004 when the contract rejects the signer', async () => {
    const response = await signInAsContract(stranger)

    expect(response).toEqual({
      status: 401,
      body: { ok: false, error: { code: 401004, message: expect.any(String) } },
    })
  })

  describe('budgets of a contract-wallet check (DECISIONS §9.4)', () => {
    // The failures of a test fall in one 15-minute window, however slow the machine.
    beforeEach(() => clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 60))

    it('delays only the client whose 5 checks failed: its sixth answers 429 with no RPC call, and the owner signs in from its own', async () => {
      const strangerClient = newClient()
      for (let guess = 0; guess < MAX_CREDENTIAL_CHECKS; guess++) {
        const refused = await signInAsContract(stranger, { sourceIp: strangerClient })
        expect(refused.body.error?.code).toBe(401004)
      }

      let sixth: Awaited<ReturnType<typeof signInAsContract>> | undefined
      const calls = await rpcCallsDuring(async () => {
        sixth = await signInAsContract(stranger, { sourceIp: strangerClient })
      })
      const ownerLogin = await signInAsContract(owner, { sourceIp: newClient() })

      expect(sixth).toEqual({
        status: 429,
        body: {
          ok: false,
          error: {
            code: 429,
            message: expect.stringMatching(/^too many failed logins from this client/),
          },
        },
      })
      expect(calls).toEqual({})
      expect(ownerLogin.status).toBe(200)
    })

    it("charges a check's RPC calls to its client's RPC budget: over it, 429 before any RPC call", async () => {
      const client = newClient()
      const limit = loadClientLimitConfig().rpc
      // The client's minute is spent but for one call (this window and the next, so a minute
      // turning over mid-test changes nothing): a wrapped check (1 call) fits, the next does not.
      const { startsAt } = windowOf(60)
      for (const windowStart of [startsAt, startsAt + 60]) {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: clientWindowKey('rpc', client, windowStart),
            UpdateExpression: 'SET #type = :type, #count = :count, expiresAt = :endsAt',
            ExpressionAttributeNames: { '#type': 'type', '#count': 'count' },
            ExpressionAttributeValues: {
              ':type': 'WindowCounter',
              ':count': limit - 1,
              ':endsAt': windowStart + 60,
            },
          }),
        )
      }

      const first = await rpcCallsDuring(async () => {
        expect((await signInAsContract(owner, { sourceIp: client })).status).toBe(200)
      })
      let refused: Awaited<ReturnType<typeof signInAsContract>> | undefined
      const second = await rpcCallsDuring(async () => {
        refused = await signInAsContract(owner, { sourceIp: client })
      })

      expect(first).toEqual({ eth_call: 1 })
      expect(refused?.status).toBe(429)
      expect(refused?.body.error?.message).toMatch(/^too many requests from this client/)
      expect(second).toEqual({})
    })
  })
})
