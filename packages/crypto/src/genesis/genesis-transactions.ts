import { delegateRegistration } from '../transactions/builders/delegate-registration-builder.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import { vote } from '../transactions/builders/vote-builder.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import type { InitialBalance } from './generate-network-options.js';
import type { GenesisWallet } from './genesis-wallet.js';

/**
 * The transactions of a genesis block, as ARK 3.0's generator makes them: version 2, fee 0, the
 * premine wallet's transfers (nonces 1, 2, ...), then each delegate's registration (nonce 1)
 * and its vote for itself (nonce 2).
 */
export function genesisTransactions(input: {
  readonly premineWallet: GenesisWallet;
  readonly balances: readonly InitialBalance[];
  readonly delegates: readonly GenesisWallet[];
  readonly pubKeyHash: number;
}): TransactionData[] {
  const network = input.pubKeyHash;
  const transfers = input.balances
    .filter((balance) => balance.amount > 0n)
    .map((balance, index) =>
      transfer({ network })
        .recipientId(balance.address)
        .amount(balance.amount)
        .fee(0n)
        .nonce(BigInt(index + 1))
        .sign(input.premineWallet.keys)
        .build(),
    );
  const registrations = input.delegates.map((delegate, index) =>
    delegateRegistration({ network })
      .username(delegateUsername(index))
      .fee(0n)
      .nonce(1n)
      .sign(delegate.keys)
      .build(),
  );
  const votes = input.delegates.map((delegate) =>
    vote({ network })
      .vote(delegate.keys.publicKey.toString('hex'))
      .fee(0n)
      .nonce(2n)
      .sign(delegate.keys)
      .build(),
  );
  return [...transfers, ...registrations, ...votes];
}

/** ARK's names for generated delegates: genesis_1, genesis_2, ... */
export function delegateUsername(index: number): string {
  return `genesis_${index + 1}`;
}

/** The premine split evenly among `addresses`; the remainder of the division goes to the first. */
export function evenBalances(premine: bigint, addresses: readonly string[]): InitialBalance[] {
  const share = premine / BigInt(addresses.length);
  const remainder = premine - share * BigInt(addresses.length);
  return addresses.map((address, index) => ({
    address,
    amount: index === 0 ? share + remainder : share,
  }));
}
