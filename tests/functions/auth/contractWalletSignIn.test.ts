import '../../support/env'
import { createTestClient, createWalletClient, http, parseEther, publicActions } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { chainOf } from '../../../lib/chain/clients'
import { loadChainConfig } from '../../../lib/config'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { httpEvent, invoke } from '../../support/httpEvent'

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
`

const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
let walletAddress: `0x${string}`

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
})

async function signInAsContract(signer: typeof owner) {
  const nonce = await invoke(
    getNonce,
    httpEvent({
      routeKey: 'GET /api/v1/auth/nonce/{address}',
      pathParameters: { address: walletAddress },
    }),
  )
  const { message } = nonce.body.result as { message: string }
  const signature = await signer.signMessage({ message })
  return invoke(
    loginWallet,
    httpEvent({ routeKey: 'POST /api/v1/auth/login', body: { address: walletAddress, signature } }),
  )
}

describe('wallet sign-in for a contract wallet (EIP-1271)', () => {
  it("logs in when the contract accepts its owner's signature", async () => {
    const response = await signInAsContract(owner)

    expect(response.status).toBe(200)
    expect(response.body.result).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
    })
  })

  it('answers 401004 when the contract rejects the signer', async () => {
    const response = await signInAsContract(stranger)

    expect(response).toEqual({
      status: 401,
      body: { ok: false, error: { code: 401004, message: expect.any(String) } },
    })
  })
})
