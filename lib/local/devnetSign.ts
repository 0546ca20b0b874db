// `npm run -s devnet:sign -- '<EIP-4361 message>'`: the demo account's signature over a sign-in
// message, for trying the local stack from a shell (README, "A first journey"). The demo account
// is anvil's public test account 0, whose key anvil's docs print: it signs only a message for one
// of the network table's devnets (chain ids 31337, 31338 and 31339 today) and refuses any other,
// so it can never sign a sign-in meant for a real chain. `--key` prints that public devnet key, which the swap and
// transfer routes take in their path.
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_DEPLOYER_PRIVATE_KEY, DEVNET_CHAIN_IDS } from './deployDex'

const DEVNET_IDS = new Set<number>(Object.values(DEVNET_CHAIN_IDS))

export class RefusedMessageError extends Error {
  override name = 'RefusedMessageError'
}

/** The chain id an EIP-4361 message names, or undefined when it names none. */
export function messageChainId(message: string): number | undefined {
  const match = /^Chain ID: (\d+)$/m.exec(message)
  return match ? Number(match[1]) : undefined
}

/** The demo account's signature over `message`, which must name a local devnet's chain id. */
export async function signAsDemoAccount(message: string): Promise<`0x${string}`> {
  const chainId = messageChainId(message)
  if (chainId === undefined || !DEVNET_IDS.has(chainId)) {
    throw new RefusedMessageError(
      `refused: the message names chain id ${chainId ?? '(none)'}; the demo key signs only for ` +
        `the local devnets (${[...DEVNET_IDS].join(', ')})`,
    )
  }
  return privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY).signMessage({ message })
}

async function main(): Promise<void> {
  const [argument] = process.argv.slice(2)
  if (argument === '--key') {
    console.log(ANVIL_DEPLOYER_PRIVATE_KEY)
    return
  }
  if (!argument) {
    console.error("usage: npm run -s devnet:sign -- '<EIP-4361 message>'   (or -- --key)")
    process.exit(2)
  }
  console.log(await signAsDemoAccount(argument))
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
