import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { DEVNET_CHAIN_IDS } from '../../../../lib/local/deployDex'
import { RefusedMessageError, signAsDemoAccount } from '../../../../lib/local/devnetSign'

const DEMO_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

function signInText(chainLine: string): string {
  return [
    'localhost:3000 wants you to sign in with your Ethereum account:',
    DEMO_ADDRESS,
    '',
    'Sign in to the wallet app.',
    '',
    'URI: http://localhost:3000',
    'Version: 1',
    chainLine,
    'Nonce: 123456789012',
    'Issued At: 2026-11-25T20:00:00.000Z',
  ].join('\n')
}

describe('the devnet signing script', () => {
  it.each(Object.values(DEVNET_CHAIN_IDS))(
    'signs a sign-in for devnet %i as the demo account',
    async (chainId) => {
      const message = signInText(`Chain ID: ${chainId}`)
      const signature = await signAsDemoAccount(message)
      expect(await verifyMessage({ address: DEMO_ADDRESS, message, signature })).toBe(true)
    },
  )

  it.each(['Chain ID: 1', 'Chain ID: 56', 'Chain ID: 313370', ''])(
    'refuses a message for any other chain (%j)',
    async (chainLine) => {
      await expect(signAsDemoAccount(signInText(chainLine))).rejects.toThrow(RefusedMessageError)
    },
  )
})
