import { AsyncLocalStorage } from 'node:async_hooks'

// The session rule's second mode (`sessionRead: 'beside'`, lib/http/defineHandler.ts): the
// caller's session is read while the core runs, and what cannot be undone waits for that read
// here rather than in each route: every DynamoDB write (lib/db/client.ts) and every broadcast
// (lib/send/sendSigned.ts) awaits `admitted()`. A route cannot forget it, and no repository or
// domain function takes a session.

const pendingAdmission = new AsyncLocalStorage<Promise<void>>()

/** Runs `core` while `admission`, the check of the caller's session, may still be running. */
export function whileAdmitting<Result>(
  admission: Promise<void>,
  core: () => Promise<Result>,
): Promise<Result> {
  return pendingAdmission.run(admission, core)
}

/**
 * Resolves once the running request's session is admitted, and rejects with the check's error
 * (401003 for an ended session) when it is not; at once outside `whileAdmitting`.
 */
export async function admitted(): Promise<void> {
  await pendingAdmission.getStore()
}
