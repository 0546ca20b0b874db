import {
  type Address,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  pad,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import { loadChainConfig } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../lib/local/catalogTokenArtifact'
import { uniswapV2Router02Abi } from '../../lib/local/uniswapV2Artifacts'
import { devnet, type FundedAccount, fundedAccount } from './devnetAccounts'
import { readClient } from './readClient'

// A token of the test's own on a devnet, with its own pools, so a swap moves only prices this
// test reads. Every transaction comes from a fresh account funded with anvil's setBalance, so no
// nonce is shared with other test files.

const swapAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

type Funded = FundedAccount

async function mined(network: NetworkName, hash: Hex) {
  const receipt = await readClient(network).waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  })
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  return receipt
}

/**
 * Credits `amount` of a devnet catalog token (an OpenZeppelin ERC-20: balances in slot 0) by
 * writing its storage: the demo USD coin cannot be minted, and buying it would move shared pools.
 */
export async function creditToken(
  network: NetworkName,
  token: Address,
  holder: Address,
  amount: bigint,
) {
  const slot = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 0n]),
  )
  await devnet(network).setStorageAt({
    address: token,
    index: slot,
    value: pad(toHex(amount), { size: 32 }),
  })
}

export interface ListedToken {
  network: NetworkName
  address: Address
  decimals: number
  deployBlock: bigint
  deployedAt: Date
  owner: Funded
}

export interface DeployListedTokenParameters {
  network?: NetworkName
  decimals?: number
  /** Whole tokens minted to the owner. */
  supply?: bigint
  /** A token/wrapped-native pool: whole tokens against native coins. */
  nativePool?: { tokens: bigint; ether: string }
  /** A token/USD-stablecoin pool: whole tokens against whole stablecoins. */
  usdPool?: { tokens: bigint; usd: bigint }
}

/** Deploys a token and seeds its pools through the router; returns it once all is mined. */
export async function deployListedToken({
  network = 'ethereum',
  decimals = 18,
  supply = 10_000_000n,
  nativePool,
  usdPool,
}: DeployListedTokenParameters = {}): Promise<ListedToken> {
  const config = loadChainConfig(network)
  const client = readClient(network)
  const owner = await fundedAccount(network, { native: parseEther('100000') })
  const unit = 10n ** BigInt(decimals)
  const artifact = await loadCatalogTokenArtifact()
  const deployed = await mined(
    network,
    await owner.wallet.deployContract({
      abi: catalogTokenAbi,
      bytecode: artifact.bytecode,
      args: ['Listed Test Token', 'LTT', decimals, supply * unit, owner.account.address],
    }),
  )
  const address = deployed.contractAddress as Address
  const block = await client.getBlock({ blockNumber: deployed.blockNumber })
  const approve = async (token: Address) =>
    mined(
      network,
      await owner.wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [config.router, maxUint256],
      }),
    )
  await approve(address)
  if (nativePool) {
    const value = parseEther(nativePool.ether)
    const tokens = nativePool.tokens * unit
    await mined(
      network,
      await owner.wallet.writeContract({
        address: config.router,
        abi: uniswapV2Router02Abi,
        functionName: 'addLiquidityETH',
        args: [address, tokens, tokens, value, owner.account.address, maxUint256],
        value,
      }),
    )
  }
  if (usdPool) {
    const usdDecimals = await client.readContract({
      address: config.usdStablecoin,
      abi: erc20Abi,
      functionName: 'decimals',
    })
    const usd = usdPool.usd * 10n ** BigInt(usdDecimals)
    const tokens = usdPool.tokens * unit
    await creditToken(network, config.usdStablecoin, owner.account.address, usd)
    await approve(config.usdStablecoin)
    await mined(
      network,
      await owner.wallet.writeContract({
        address: config.router,
        abi: uniswapV2Router02Abi,
        functionName: 'addLiquidity',
        args: [
          address,
          config.usdStablecoin,
          tokens,
          usd,
          tokens,
          usd,
          owner.account.address,
          maxUint256,
        ],
      }),
    )
  }
  return {
    network,
    address,
    decimals,
    deployBlock: deployed.blockNumber,
    deployedAt: new Date(Number(block.timestamp) * 1000),
    owner,
  }
}

/** Buys the token with `ether` native coins (path: wrapped native, token) from a fresh account. */
export async function buyWithNative(token: ListedToken, ether: string) {
  const config = loadChainConfig(token.network)
  const buyer = await fundedAccount(token.network, {
    native: parseEther(String(Number(ether) + 10)),
  })
  const receipt = await mined(
    token.network,
    await buyer.wallet.writeContract({
      address: config.router,
      abi: swapAbi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [config.wrappedNative, token.address], buyer.account.address, maxUint256],
      value: parseEther(ether),
    }),
  )
  const bought = await readClient(token.network).readContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [buyer.account.address],
  })
  return { bought, receipt }
}
