/**
 * What `make run`'s demo seed (seed-demo.ts) hands the developer, kept in files under `.data/` of
 * the checkout (git-ignored), readable by the owner only (mode 0600): the demo client's
 * credentials and an initial access token for registering clients of one's own. /auth.md and
 * docs/api.md read the token from here (`$(cat .data/initial-access-token)`), so the walkthrough
 * runs as pasted in the checkout where `make run` ran.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The demo OAuth client (role system): `{ client_id, client_secret, ... }` as registration answered it. */
export const DEMO_CLIENT_FILE = '.data/demo-client.json';
/** An initial access token (role system, 10 registrations, 24 h), the token alone on one line. */
export const INITIAL_ACCESS_TOKEN_FILE = '.data/initial-access-token';

/**
 * Writes a secret for the developer to `file` under `root` (default: the working directory, the
 * checkout), mode 0600 even when the file existed with a wider mode. Returns the path written.
 */
export async function saveSecretFile(file: string, text: string, root = '.'): Promise<string> {
  const path = join(root, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file
  await chmod(path, 0o600);
  return path;
}

export const saveInitialAccessToken = (token: string, root = '.') => saveSecretFile(INITIAL_ACCESS_TOKEN_FILE, `${token}\n`, root);
