import { listOption } from '@lni/kernel';
import Joi from 'joi';
import { addressRule } from './route.js';

export interface AddressWatchOptions {
  /** The addresses whose transactions the plugin records. */
  readonly addresses: readonly string[];
}

export const optionsSchema: Joi.ObjectSchema<AddressWatchOptions> = Joi.object<AddressWatchOptions>(
  {
    // An array in app.json, or comma-separated text from ADDRESS_WATCH_ADDRESSES.
    addresses: listOption().items(addressRule).unique().default([]),
  },
);

/** Operators can set the watched addresses from the environment. */
export const environment = { ADDRESS_WATCH_ADDRESSES: 'addresses' };
