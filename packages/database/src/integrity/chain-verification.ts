/**
 * The boot's integrity check of the stored chain, as a result other plugins can wait for.
 *
 * By default the database plugin's boot waits for the check, so every later plugin starts on a
 * verified chain. A plugin that reads the chain itself at boot (state, loading its wallets) may
 * `takeOver()` in `register`: the check then runs while that plugin boots, and that plugin
 * awaits `verified()` before it uses or serves anything built from the chain. The check is the
 * same either way; only what it overlaps with changes.
 */
export class ChainVerification {
  #owner: string | undefined;
  #result: Promise<number> | undefined;

  /** Who waits for the check instead of the database plugin's boot (undefined: nobody). */
  get owner(): string | undefined {
    return this.#owner;
  }

  /** Called in `register` by the plugin that will await `verified()` in its own boot. */
  takeOver(plugin: string): void {
    if (this.#owner !== undefined && this.#owner !== plugin) {
      throw new Error(`the chain verification is already taken over by '${this.#owner}'`);
    }
    this.#owner = plugin;
  }

  /** Starts the check (once); `check` resolves with the chain height or throws what is wrong. */
  start(check: () => Promise<number>): Promise<number> {
    if (this.#result) return this.#result;
    const result = (this.#result = check());
    // Whoever awaits `verified()` sees a failure; until then it must not go unhandled.
    result.catch(() => undefined);
    return result;
  }

  /**
   * Resolves with the verified chain height once the check passed (undefined when no check
   * runs: `integrityCheck` off), rejects with its IntegrityError.
   */
  verified(): Promise<number | undefined> {
    return this.#result ?? Promise.resolve(undefined);
  }
}
