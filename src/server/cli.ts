/** What the command-line tools (npm run backup, restore, owner-link) share: how they fail and read the config. */
import { loadConfig, ConfigError, type Config } from './config.js';

/** Writes `tessera: message` to stderr and exits with the code (1 unless given). */
export function fail(message: string, code = 1): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(code);
}

/** The configuration from the environment; a configuration error ends the tool with its message. */
export function configOrFail(): Config {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
}
