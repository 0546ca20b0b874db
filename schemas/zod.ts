// zod/mini: the same validation as classic zod at about a quarter of the bundle, which every
// function carries. It ships without messages; the English locale gives the ones classic zod
// reports. Import zod from here, never from 'zod' or 'zod/mini' directly.
import { en } from 'zod/locales'
import { config } from 'zod/mini'

config(en())

export * from 'zod/mini'
