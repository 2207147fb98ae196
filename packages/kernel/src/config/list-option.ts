import Joi from 'joi';

// An environment variable gives one string; the same option in app.json is an array.
const listJoi: Joi.Root = Joi.extend({
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

/**
 * A plugin option holding a list: an array in `app.json`, or the same as comma-separated text
 * from an environment variable (`CORE_API_TRUSTED_PROXIES=10.0.0.0/8, 192.168.1.7`). Chain
 * `items`, `min`, `unique` and `default` as on `Joi.array()`; an error names the item
 * (`"trustedProxies[1]" must be…`).
 */
export function listOption(): Joi.ArraySchema {
  return (listJoi as unknown as { list(): Joi.ArraySchema }).list();
}
