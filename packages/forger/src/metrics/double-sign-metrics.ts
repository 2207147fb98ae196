import { Counter, type Registry } from 'prom-client';

/**
 * `lni_forger_double_sign_prevented_total{delegate}`: blocks this forger did not sign because
 * another forger signs with the same key. Any value above 0 wants an operator.
 */
export function doubleSignsPrevented(registry: Registry): (delegate: string) => void {
  const counter = new Counter({
    name: 'lni_forger_double_sign_prevented_total',
    help: 'Blocks not signed because another forger signs with the same delegate key',
    labelNames: ['delegate'],
    registers: [registry],
  });
  return (delegate) => counter.inc({ delegate });
}
