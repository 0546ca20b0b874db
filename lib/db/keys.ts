// Every key of the single table, and the access patterns they serve.
//
// | access pattern                     | operation | key                                              |
// |------------------------------------|-----------|--------------------------------------------------|
// | list networks                      | Query     | pk = NETWORK                                     |
// | find a network by id               | Query     | pk = NETWORK (two items; matched on `id`)        |
// | get a wallet (nonce, login)        | GetItem   | pk = WALLET#<address>, sk = WALLET               |
// | get a session by id (guard)        | GetItem   | pk = SESSION#<sid>, sk = SESSION#<sid>           |
// | list sessions of a subject         | Query GSI1| gsi1pk = SUBJECT#<aud>#<sub>, gsi1sk = SESSION#<sid> |
// | register an account (unique name)  | PutItem   | pk = USERNAME#<lower>, sk = ACCOUNT (if absent)  |
// | login: account and failed logins   | Query     | pk = USERNAME#<lower> (ACCOUNT, LOGIN_FAILURES)  |
// | count a failed login               | UpdateItem| pk = USERNAME#<lower>, sk = LOGIN_FAILURES       |
// | list the catalog (token list)      | Query     | pk = CATALOG                                     |
// | get a project by id                | GetItem   | pk = CATALOG, sk = PROJECT#<id>                  |
//
// A project's id is derived from (network, lower-cased address), so a catalog import is an upsert.
// Addresses are lower-cased in keys so the key is the same whatever the checksum casing.

export interface TableKey {
  pk: string
  sk: string
}

export const NETWORK_PARTITION = 'NETWORK'

export function networkKey(network: string): TableKey {
  return { pk: NETWORK_PARTITION, sk: `NETWORK#${network}` }
}

export function sessionKey(sessionId: string): TableKey {
  return { pk: `SESSION#${sessionId}`, sk: `SESSION#${sessionId}` }
}

export function subjectSessionsIndexKey(audience: string, subject: string, sessionId: string) {
  return {
    gsi1pk: `SUBJECT#${audience}#${subject.toLowerCase()}`,
    gsi1sk: `SESSION#${sessionId}`,
  }
}

export const CATALOG_PARTITION = 'CATALOG'

export function projectKey(projectId: string): TableKey {
  return { pk: CATALOG_PARTITION, sk: `PROJECT#${projectId}` }
}

// Usernames are lower-cased in keys so `Alice` and `alice` are one name; the account and its
// failure counter share a partition, so login reads both in one call.
export function usernamePartition(username: string): string {
  return `USERNAME#${username.toLowerCase()}`
}

export function accountKey(username: string): TableKey {
  return { pk: usernamePartition(username), sk: 'ACCOUNT' }
}

export function loginFailuresKey(username: string): TableKey {
  return { pk: usernamePartition(username), sk: 'LOGIN_FAILURES' }
}

export function walletKey(address: string): TableKey {
  return { pk: `WALLET#${address.toLowerCase()}`, sk: 'WALLET' }
}
