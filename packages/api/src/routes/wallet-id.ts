import Boom from '@hapi/boom';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import type { WalletView } from '@lni/state/contracts';

/** `{id}` of wallet and delegate routes: an address, a public key or a delegate username. */
export const walletIdParams = Joi.object({
  id: Joi.string()
    .min(1)
    .max(66)
    .pattern(/^[a-zA-Z0-9!@$&_.]+$/)
    .required()
    .description('address, public key or delegate username'),
});

export async function walletOrNotFound(ledger: LedgerReader, id: string): Promise<WalletView> {
  const wallet = await ledger.findWallet(id);
  if (wallet === undefined) throw Boom.notFound(`wallet ${id} not found`);
  return wallet;
}
