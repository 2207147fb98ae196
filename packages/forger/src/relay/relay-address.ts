import { listOption } from '@lni/kernel';
import Joi from 'joi';

/** A relay as the forger's options name it: `host:port`, IPv6 in brackets (`[::1]:4000`). */
export interface RelayAddress {
  readonly host: string;
  readonly port: number;
}

const ADDRESS = /^(?:\[(?<v6>[0-9a-fA-F:.]+)\]|(?<host>[^:\s[\]]+)):(?<port>\d{1,5})$/;

/** Parses `host:port`; undefined when it is not one. */
export function parseRelayAddress(text: string): RelayAddress | undefined {
  const match = ADDRESS.exec(text.trim());
  const port = Number(match?.groups?.port);
  const host = match?.groups?.v6 ?? match?.groups?.host;
  if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return { host, port };
}

/**
 * The `relays` option: an array of `host:port`, or one comma-separated string of them, as the
 * CORE_FORGER_RELAYS environment variable gives it.
 */
export const relaysOptionSchema = listOption()
  .items(
    Joi.string().custom((value: string, helpers) =>
      parseRelayAddress(value) ? value.trim() : helpers.error('string.relayAddress'),
    ),
  )
  .min(1)
  .optional()
  .messages({ 'string.relayAddress': '{{#label}} must be host:port (IPv6 as [::1]:4000)' });
