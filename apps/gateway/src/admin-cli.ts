/**
 * The operator's command line (no HTTP, straight to the database; run where the gateway runs):
 *
 *   npm run admin -- initial-access-token --role device [--uses 1] [--ttl 86400] [--label "ward 3"]
 *       mints an RFC 7591 §3 initial access token: a client that registers with it gets the role
 *       (--uses 0: any number of registrations until it expires)
 *   npm run admin -- rotate-key [--alg ES256|RS256]
 *       retires the active token signing key of each algorithm (or only --alg's; their tokens stay
 *       valid until they expire) and makes new ones; every gateway signs with them from its next key
 *       refresh (SIGNING_KEY_REFRESH_SECONDS). ES256 signs access tokens, RS256 (default) or ES256
 *       ID tokens. Answers `active_kid` (the access-token key, or --alg's) and `active_kids` per alg
 *   npm run admin -- withdraw-key <kid>
 *       takes a key out at once (a leaked private key): every gateway refuses the tokens it signed
 *       from its next key refresh; withdrawing the active key of an algorithm rotates it first
 *   npm run admin -- export-group <id> --members pat-1,pat-2 [--label "Ward 3"]
 *       creates or replaces the FHIR Group <id> (a ward, a cohort) that GET /fhir/R4/Group/<id>/$export
 *       exports (docs/export.md)
 *   npm run admin -- audit-verify
 *       walks the audit hash chain (every row's hash and link, the chain head) and checks it against
 *       every signed checkpoint in AUDIT_CHECKPOINT_DIR (AUDIT_CHECKPOINT_KEY: the gateways' key;
 *       AUDIT_CHECKPOINT_PREVIOUS_KEYS: retired ones, for checkpoints signed before a rotation);
 *       prints the result with the first broken row id, exits 1 when anything is wrong
 *   npm run admin -- fhir-text-check [--repair] [--system LOCAL=URI ...]
 *       lists every stored text a served FHIR resource would carry that breaks a FHIR primitive rule
 *       (resource, id, field, rule; a control character, an identifier system that is not an
 *       absolute URI); --repair appends correcting Patient events as the actor `migration`
 *       (control characters removed, each --system LOCAL=URI mapped); exits 1 while anything is
 *       listed (fhir-text-check.ts, docs/adr/0027-invalid-stored-text.md)
 *
 * KEY_ENCRYPTION_SECRET must be the gateways' (new keys are stored encrypted with it).
 * The admin API (`/api/auth/admin/...`, scope admin:clients) does the same over HTTP once an
 * admin can sign in; this command is how the first one is made. DATABASE_URL names the database.
 */
import { parseArgs } from 'node:util';
import { createPool, type Pool } from '@vitalis/db';
import { verifyAuditTrail } from '@vitalis/audit';
import { ROLES, isRole, resourceId } from '@vitalis/schemas';
import { saveGroup } from '@vitalis/export';
import { DEFAULT_DATABASE_URL, parseConfig } from '@vitalis/config';
import { mintInitialAccessToken } from './auth/initial-access';
import { ACCESS_TOKEN_ALG, SIGNING_ALGS, isSigningAlg, rotateSigningKeys, withdrawSigningKey } from './auth/keys';
import { auditCheckpointSettings, gatewayConfigShape, withBaseUrl } from './config';
import { fhirTextCheckCommand } from './fhir-text-check';

const usage = [
  `usage: npm run admin -- initial-access-token --role <${ROLES.join('|')}> [--uses N (0: unlimited)] [--ttl SECONDS] [--label TEXT]`,
  `       npm run admin -- rotate-key [--alg ${SIGNING_ALGS.join('|')}]`,
  '       npm run admin -- withdraw-key <kid>',
  '       npm run admin -- export-group <id> --members <patient id,...> [--label TEXT]',
  '       npm run admin -- audit-verify',
  '       npm run admin -- fhir-text-check [--repair] [--system LOCAL=URI ...]',
].join('\n');

/** One command; the answer as JSON and an exit code (2: the words are off). */
async function run(pool: Pool, argv: string[]): Promise<{ output?: unknown; code: number }> {
  const keySecret = () => withBaseUrl(parseConfig(gatewayConfigShape)).KEY_ENCRYPTION_SECRET;
  // withdraw-key takes one word and no option, read as it is: a kid is base64url, so one in 64
  // begins with '-', which the option parser would take for an option (`withdraw-key -- <kid>` works too)
  if (argv[0] === 'withdraw-key') {
    const words = argv[1] === '--' ? argv.slice(2) : argv.slice(1);
    if (words.length !== 1 || !words[0]) return { code: 2 };
    const result = await withdrawSigningKey(pool, keySecret(), words[0]);
    return { output: { kid: words[0], ...result }, code: result.withdrawn ? 0 : 1 };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        role: { type: 'string' },
        uses: { type: 'string', default: '1' },
        ttl: { type: 'string', default: '86400' },
        label: { type: 'string', default: '' },
        alg: { type: 'string' },
        members: { type: 'string' },
      },
    });
  } catch {
    return { code: 2 }; // an unknown option, an option without its value
  }
  const { positionals, values } = parsed;
  const [command, ...rest] = positionals;
  if (command === 'audit-verify' && rest.length === 0) {
    const { dir, key, previousKeys } = auditCheckpointSettings(parseConfig(gatewayConfigShape));
    const result = await verifyAuditTrail(pool, { dir, key, previousKeys });
    return { output: { checkpoint_dir: dir, ...result }, code: result.ok ? 0 : 1 };
  }
  if (command === 'export-group' && rest.length === 1) {
    const members = (values.members ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    const [groupId] = rest;
    if (
      groupId === undefined ||
      !resourceId.safeParse(groupId).success ||
      members.length === 0 ||
      !members.every((m) => resourceId.safeParse(m).success)
    )
      return { code: 2 };
    await saveGroup(pool, { id: groupId, name: values.label || groupId, members });
    return { output: { group: rest[0], members: members.length }, code: 0 };
  }
  if (command === 'rotate-key' && rest.length === 0) {
    if (values.alg !== undefined && !isSigningAlg(values.alg)) return { code: 2 };
    const kids = await rotateSigningKeys(pool, keySecret(), values.alg ? [values.alg] : SIGNING_ALGS);
    return { output: { active_kid: kids[values.alg ?? ACCESS_TOKEN_ALG], active_kids: kids }, code: 0 };
  }
  const uses = Number(values.uses);
  const ttl = Number(values.ttl);
  if (
    command !== 'initial-access-token' ||
    rest.length > 0 ||
    !values.role ||
    !isRole(values.role) ||
    !Number.isInteger(uses) ||
    uses < 0 ||
    !Number.isInteger(ttl) ||
    ttl < 60
  ) {
    return { code: 2 };
  }
  const minted = await mintInitialAccessToken(pool, {
    role: values.role,
    createdBy: `cli:${process.env.USER ?? 'operator'}`,
    ttlSeconds: ttl,
    maxUses: uses === 0 ? null : uses,
    label: values.label,
  });
  return { output: minted, code: 0 };
}

const pool = createPool({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 1, application: 'vitalis-admin-cli' });
let result: { output?: unknown; code: number };
try {
  const argv = process.argv.slice(2);
  result = argv[0] === 'fhir-text-check' ? await fhirTextCheckCommand(pool, argv.slice(1)) : await run(pool, argv);
} finally {
  await pool.end();
}
if (result.code === 2) process.stderr.write(`${usage}\n`);
if (result.output !== undefined) process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
process.exitCode = result.code;
