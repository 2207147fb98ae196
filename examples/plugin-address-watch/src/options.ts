import Joi from 'joi';
import { addressRule } from './route.js';

export interface AddressWatchOptions {
  /** The addresses whose transactions the plugin records. */
  readonly addresses: readonly string[];
}

// A list from the environment is one string: ADDRESS_WATCH_ADDRESSES=A…,B…
const listJoi = Joi.extend({
  type: 'list',
  base: Joi.array(),
  coerce: {
    from: 'string',
    method: (value: string) => ({
      value: value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    }),
  },
});

export const optionsSchema: Joi.ObjectSchema<AddressWatchOptions> = Joi.object<AddressWatchOptions>(
  {
    addresses: listJoi.list().items(addressRule).unique().default([]),
  },
);

/** Operators can set the watched addresses from the environment. */
export const environment = { ADDRESS_WATCH_ADDRESSES: 'addresses' };
