import '../../support/env'
import { type Address, getAddress, type Hash, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import { listTrades } from '../../../lib/db/trade'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'
import { functionName } from '../../../lib/networks/operations'
import type { Preview } from '../../../lib/preview/previewSequence'
import { deployment, devnet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { networkHandler } from '../../support/networkRoutes'
import { keyOf, measuredChanges, minedAlone, previewChanges } from '../../support/previewChecks'
import { signInWithWallet } from '../../support/walletSignIn'

// The `{key}` swap simulates its transactions before it sends any (DECISIONS §10.2): it answers
// the preview beside the hash, and a simulation that fails is a 422 with the reason, nothing sent.

// A wallet whose code (EIP-7702 style) refuses the native coin in a transaction it sent itself:
// the route's quote (simulated from no sender) passes, the wallet's own swap reverts.
const REFUSES_OWN_COIN = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;
contract RefusesOwnCoin {
    receive() external payable {
        require(tx.origin != address(this), "refuses its own coin");
    }
}
`

async function signedInWallet(tokens: Record<string, bigint> = {}) {
  const funded = await fundedAccount('ethereum', { native: parseEther('20'), tokens })
  return { ...funded, access: (await signInWithWallet(funded.privateKey)).access }
}

function swapTokens(key: string, access: string, body: Record<string, unknown>) {
  return networkHandler('swapTokens', 'ethereum').then((handler) =>
    invoke(
      handler,
      httpEvent({
        route: functionName('swapTokens', 'ethereum'),
        pathParameters: { key },
        headers: { authorization: `Bearer ${access}` },
        body,
      }),
    ),
  )
}

const nonceOf = (address: Address) =>
  devnet('ethereum').getTransactionCount({ address, blockTag: 'pending' })

describe('{key} swap preview', () => {
  it('answers the preview beside the hash; it equals the mined balance changes', async () => {
    const dex = deployment('ethereum')
    const wallet = await signedInWallet()
    const link = dex.token('LINK')
    const body = {
      amount: '0.3',
      address0: NATIVE_COIN,
      decimals0: 18,
      address1: link,
      decimals1: 18,
    }

    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const response = await swapTokens(wallet.privateKey, wallet.access, body)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      const { txId, preview } = response.body.result as { txId: Hash; preview: Preview }
      expect(preview.issues).toEqual([])
      const receipt = await devnet('ethereum').waitForTransactionReceipt({ hash: txId })
      // Another file's transaction between the preview and ours changes the state: again.
      if (!(await minedAlone('ethereum', preview, [receipt.blockNumber]))) continue
      const pairs = [
        ...preview.balanceChanges.map(
          (change) => [change.address, change.token] as [Address, Address],
        ),
        [wallet.address, link] as [Address, Address],
        [wallet.address, NATIVE_COIN] as [Address, Address],
      ]
      const measured = await measuredChanges('ethereum', wallet.address, pairs, [receipt])
      expect(previewChanges(preview)).toEqual(measured)
      expect(measured.get(keyOf(wallet.address, NATIVE_COIN))).toBe(-parseEther('0.3'))
      return
    }
    throw new Error('three attempts met another transaction between preview and mining')
  })

  it('answers 422 with the revert reason and broadcasts nothing when the simulation reverts', async () => {
    const dex = deployment('ethereum')
    const uni = dex.token('UNI')
    const wallet = await signedInWallet({ UNI: parseEther('10') })
    const { deployedBytecode } = await compileSolidity({
      sourceName: 'RefusesOwnCoin.sol',
      source: REFUSES_OWN_COIN,
      contractName: 'RefusesOwnCoin',
    })
    await devnet('ethereum').setCode({ address: wallet.address, bytecode: deployedBytecode })
    const nonce = await nonceOf(wallet.address)
    const blockBefore = await devnet('ethereum').getBlockNumber()

    const response = await swapTokens(wallet.privateKey, wallet.access, {
      amount: '5',
      address0: uni,
      decimals0: 18,
      address1: NATIVE_COIN,
      decimals1: 18,
    })

    expect(response.status, JSON.stringify(response.body)).toBe(422)
    expect(response.body.error?.message).toMatch(
      /^the swap would revert on ethereum: .+; nothing was sent$/,
    )
    expect(await nonceOf(wallet.address)).toBe(nonce)
    // Neither the approval nor the swap left: no block holds a transaction of the wallet.
    const blockAfter = await devnet('ethereum').getBlockNumber()
    for (let number = blockBefore + 1n; number <= blockAfter; number += 1n) {
      const block = await devnet('ethereum').getBlock({
        blockNumber: number,
        includeTransactions: true,
      })
      for (const transaction of block.transactions) {
        expect(getAddress(transaction.from)).not.toBe(getAddress(wallet.address))
      }
    }
    const { trades } = await listTrades({
      wallet: wallet.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(trades).toEqual([])
  })
})
