/** One service as ARK's getStatus lists it under `config.plugins`. */
export interface AnnouncedService {
  readonly port: number;
  readonly enabled: boolean;
}

/** A service a plugin offers to the network, by the name peers know it under. */
export interface PublicService {
  /** The name peers look for, e.g. `@arkecosystem/core-api` for the public API. */
  readonly name: string;
  /** The port it listens on; undefined or 0 while it does not listen (not announced then). */
  port(): number | undefined;
}

/**
 * What this node announces to its peers as its public services (ARK's getStatus
 * `config.plugins`). Plugins `add` during `register`; the P2P plugin reads `announced()` on
 * each request, so a port chosen at boot (port 0) is the one announced.
 */
export class PublicServices {
  private readonly services = new Map<string, PublicService>();

  add(service: PublicService): void {
    if (this.services.has(service.name)) {
      throw new Error(`a public service named '${service.name}' is already added`);
    }
    this.services.set(service.name, service);
  }

  /** The services listening now, by name. */
  announced(): Record<string, AnnouncedService> {
    const announced: Record<string, AnnouncedService> = {};
    for (const { name, port } of this.services.values()) {
      const listening = port();
      if (listening !== undefined && listening > 0) {
        announced[name] = { port: listening, enabled: true };
      }
    }
    return announced;
  }
}
