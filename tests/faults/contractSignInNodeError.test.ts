import '../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { parseEther, serializeErc6492Signature, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { CREDENTIAL_WINDOW_SECONDS } from '../../lib/auth/attemptBudget'
import { db, tableName } from '../../lib/db/client'
import { attemptWindowKey } from '../../lib/db/keys'
import { windowOf } from '../../lib/db/windowCounter'
import { compileSolidity } from '../../lib/local/catalogTokenArtifact'
import { deployment, devnet, fundedAccount } from '../support/devnetAccounts'
import { type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { httpEvent, invoke } from '../support/httpEvent'
import { clearOfWindowEnd } from '../support/windowEdge'

// Issue 22 row 8: a provider's rate limit (-32005) while a contract wallet's ERC-1271 signature is
// checked is the node failing, not the wallet refusing: 502 like every other route (DECISIONS
// §7.2), and the address's credential check is given back.

const WALLET_SOURCE = `// SPDX-License-Identifier: MIT
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
`

const owner = privateKeyToAccount(generatePrivateKey())
let walletAddress: `0x${string}`
let proxy: RpcProxy

beforeAll(async () => {
  // No configuration is read before the proxy's URL is set: clients are built on first use.
  const deployer = await fundedAccount('ethereum', { native: parseEther('10') })
  const artifact = await compileSolidity({
    sourceName: 'Minimal1271Wallet.sol',
    source: WALLET_SOURCE,
    contractName: 'Minimal1271Wallet',
  })
  const hash = await deployer.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [owner.address],
  })
  walletAddress =
    (await devnet('ethereum').waitForTransactionReceipt({ hash })).contractAddress ?? '0x'
  proxy = await startRpcProxy(deployment('ethereum').rpcUrl)
  process.env.ETHEREUM_RPC_URL = proxy.url
}, 60_000)

afterAll(async () => {
  await proxy?.close()
})

// One client for every login of the file: its attempts at the wallet are what is counted.
const CLIENT = '192.0.2.77'

async function contractLogin() {
  const issued = await invoke(
    getNonce,
    httpEvent({
      route: 'getNonce',
      pathParameters: { address: walletAddress },
    }),
  )
  const { message, nonce } = issued.body.result as { message: string; nonce: number }
  const signature = serializeErc6492Signature({
    address: zeroAddress,
    data: '0x',
    signature: await owner.signMessage({ message }),
  })
  return invoke(
    loginWallet,
    httpEvent({
      route: 'loginWallet',
      body: { address: walletAddress, signature, nonce },
      sourceIp: CLIENT,
    }),
  )
}

async function attemptsCounted(): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: attemptWindowKey(
        'wallet',
        walletAddress,
        CLIENT,
        windowOf(CREDENTIAL_WINDOW_SECONDS).startsAt,
      ),
      ConsistentRead: true,
    }),
  )
  return Number(Item?.count ?? 0)
}

describe('a contract-wallet sign-in while the provider rate-limits eth_call', () => {
  it('answers 502 and spends no credential check; the same login then succeeds', async () => {
    await clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 30)
    proxy.answerWithError((call) => call.method === 'eth_call', {
      code: -32005,
      message: 'limit exceeded',
    })
    try {
      const refused = await contractLogin()

      expect(refused).toEqual({
        status: 502,
        body: { ok: false, error: { code: 502, message: expect.any(String) } },
      })
      expect(await attemptsCounted()).toBe(0)
    } finally {
      proxy.answerWithError(undefined)
    }

    expect((await contractLogin()).status).toBe(200)
    expect(await attemptsCounted()).toBe(0)
  })
})
