import { describeError, RegistrationError } from '../errors.js';

/** A part of `kernel status`, read by the plugin that knows it (p2p its peers, state its pool). */
export interface StatusSection {
  /** The key of the section in the status, e.g. `peers`; unique in the node. */
  readonly name: string;
  read(): unknown;
}

const READ_TIMEOUT_MS = 3_000;

/**
 * The sections `status` gathers. Plugins add theirs during `register`; a section that fails or
 * hangs reads as `{ error }` so that one broken part never hides the others.
 */
export class StatusSections {
  private readonly sections = new Map<string, { plugin: string; section: StatusSection }>();

  add(plugin: string, ...sections: StatusSection[]): void {
    for (const section of sections) {
      const owner = this.sections.get(section.name);
      if (owner) {
        throw new RegistrationError(
          `status section '${section.name}' is offered by two plugins: '${owner.plugin}' and '${plugin}'`,
        );
      }
      this.sections.set(section.name, { plugin, section });
    }
  }

  /** Every section by name, in the order added, each read at once. */
  async read(timeoutMs = READ_TIMEOUT_MS): Promise<Record<string, unknown>> {
    const entries = await Promise.all(
      [...this.sections.values()].map(async ({ section }) => {
        try {
          return [section.name, await withTimeout(section.read(), timeoutMs)] as const;
        } catch (error) {
          return [section.name, { error: describeError(error) }] as const;
        }
      }),
    );
    return Object.fromEntries(entries);
  }
}

async function withTimeout(value: unknown, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve(value), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
