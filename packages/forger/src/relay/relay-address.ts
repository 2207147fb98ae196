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
export const relayListSchema = Joi.array()
  .items(
    Joi.string().custom((value: string, helpers) =>
      parseRelayAddress(value) ? value.trim() : helpers.error('string.relayAddress'),
    ),
  )
  .min(1)
  .messages({ 'string.relayAddress': '{{#label}} must be host:port (IPv6 as [::1]:4000)' });

export const relaysOptionSchema = Joi.alternatives()
  .try(
    relayListSchema,
    Joi.string().custom((value: string, helpers) => {
      const list = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      const { error, value: relays } = relayListSchema.validate(list);
      if (error) return helpers.message({ custom: `relays: ${error.message}` });
      return relays as string[];
    }),
  )
  .optional();
