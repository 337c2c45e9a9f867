import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

// Every setting comes from the environment and is checked once at start; a bad value stops the
// start with one line naming the variable and what it expects.

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1' || v === 'yes'));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `expected a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** A 256-bit key in base64 (`openssl rand -base64 32`). */
const key256 = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const bytes = Buffer.from(v, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(v.trim()) || bytes.length !== 32) {
      ctx.addIssue({ code: 'custom', message: 'expected 32 bytes in base64 (openssl rand -base64 32)' });
      return z.NEVER;
    }
    return bytes;
  });

// smtp is the listener of mail in; it runs only where SMTP_LISTEN_PORT is set too.
const SERVICES = ['web', 'jobs', 'live', 'smtp'] as const;

const envSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'expected a postgres:// or postgresql:// connection URL' })
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SEED_DEMO: bool(true),
  ADMIN_PASSWORD: z.string().min(8, { message: 'expected at least 8 characters' }).optional(),
  DEMO_PASSWORD: z.string().min(8, { message: 'expected at least 8 characters' }).optional(),
  PUBLIC_URL: z.url({ message: 'expected an absolute URL such as https://dossier.example.com' }).optional(),
  TRUST_PROXY: bool(false),
  SESSION_IDLE_MINUTES: int(60, 1, 60 * 24 * 30),
  SESSION_ABSOLUTE_HOURS: int(12, 1, 24 * 365),
  SIGNIN_MAX_FAILURES: int(5, 1, 100),
  SIGNIN_LOCK_MINUTES: int(15, 1, 24 * 60),
  SIGNIN_IP_LIMIT: int(20, 1, 100000),
  // A passkey alone signs in (passwordless), besides being a second factor after the password.
  PASSKEY_SIGNIN: bool(false),
  // The second step offers "Remember this device for 30 days": a browser that passed it skips it.
  SIGNIN_REMEMBER_DEVICE: bool(false),
  SELF_REGISTRATION: bool(false),
  // Tests and journeys: every answer of a route with a contract is checked against it (http/serve.ts).
  CHECK_ANSWERS: bool(false),
  SELF_REGISTRATION_SCOPE: z
    .string()
    .regex(/^\/([A-Za-z0-9_-]+\/)*$/, { message: 'expected a scope path such as /registered/' })
    .default('/registered/'),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024, 100 * 1024 * 1024),
  DB_POOL_SIZE: int(10, 1, 200),
  METRICS_TOKEN: z.string().min(16, { message: 'expected at least 16 characters' }).optional(),
  OVERLOAD_EVENT_LOOP_DELAY_MS: int(1000, 0, 60_000),
  SHUTDOWN_DRAIN_SECONDS: int(0, 0, 300),
  SERVICES: z
    .string()
    .default(SERVICES.join(','))
    .transform((v, ctx) => {
      const list = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = list.filter((s) => !(SERVICES as readonly string[]).includes(s));
      if (bad.length > 0 || list.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a comma-separated list of ${SERVICES.join(', ')}`,
        });
        return z.NEVER;
      }
      return list as (typeof SERVICES)[number][];
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DEV_SERVER: z.url({ message: 'expected the URL of the Vite dev server' }).optional(),
  WEB_DIST_DIR: z.string().optional(),
  FILES_DIR: z.string().min(1).optional(),
  FILES_MAX_MB: int(50, 1, 10_000),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.url({ message: 'expected the URL of the S3-compatible service' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, {
      message: 'expected an smtp:// or smtps:// URL such as smtp://user:pass@mail.example:587',
    })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Dossier <no-reply@dossier.localhost>'),
  // Mail in: the built-in SMTP listener (service smtp) takes mail for INBOX_ADDRESS on this port.
  SMTP_LISTEN_PORT: int(-1, 0, 65535),
  INBOX_ADDRESS: z
    .string()
    .regex(/^[^@\s<>]+@[^@\s<>]+$/, { message: 'expected an email address such as inbox@dossier.example' })
    .default('inbox@dossier.localhost'),
  SMTP_MAX_MESSAGE_MB: int(25, 1, 1000),
  // Mail in, optionally also polled from a mailbox over IMAP (with the smtp service).
  IMAP_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const imap = parseImapUrl(v);
      if (!imap) {
        ctx.addIssue({
          code: 'custom',
          message:
            'expected an imap:// or imaps:// URL with user and password, such as imaps://user:pass@imap.example:993/INBOX',
        });
        return z.NEVER;
      }
      return imap;
    }),
  IMAP_POLL_SECONDS: int(60, 5, 86_400),
  // Requests issued by fax are mailed to an email-to-fax gateway; {number} becomes the fax digits.
  FAX_GATEWAY_ADDRESS: z
    .string()
    .regex(/^[^@\s]*\{number\}[^@\s]*@[^@\s]+$/, {
      message: 'expected an address with {number} before the @, such as {number}@fax.example',
    })
    .default('{number}@fax.invalid'),
  SSO_ISSUER_URL: z.url({ message: 'expected the URL of the OpenID Connect issuer' }).optional(),
  SSO_CLIENT_ID: z.string().min(1).optional(),
  SSO_CLIENT_SECRET: z.string().min(1).optional(),
  SSO_PASSWORD_HANDLING: bool(true),
  SSO_APPLICATIONS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [];
      const parsed = ssoApplications.safeParse(safeJson(v));
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected a JSON list of {"name","icon","url"} with https URLs',
        });
        return z.NEVER;
      }
      return parsed.data;
    }),
  // Only for a local test provider: allows an http:// issuer.
  SSO_ALLOW_HTTP: bool(false),
  // With SSO_PASSWORD_HANDLING=false: the user id of a local administrator that may still sign in
  // with a password (break-glass; every use recorded and mailed to the root administrators).
  SSO_BREAK_GLASS_USER: z.string().trim().min(1).max(200).optional(),
  // The `acr` values of the provider's ID token that count as a second factor (comma-separated);
  // an `amr` with mfa, otp, hwk or swk counts anyway.
  SSO_SECOND_FACTOR_ACR: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  // Only for tests: lets webhooks reach this machine (never private networks or metadata services).
  WEBHOOKS_ALLOW_LOOPBACK: bool(false),
  WEBHOOKS_CA_FILE: z.string().min(1).optional(),
  // Public API: the audience its tokens must name (default: PUBLIC_URL + /api/v1) and calls per key.
  API_AUDIENCE: z.string().min(1).max(500).optional(),
  API_RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000),
  // Download files (feature resultFileDownloadTracking): the page, its menu entry and the
  // request-results report; and the most results its list holds (maxNumberResultsFetched).
  RESULT_FILE_DOWNLOAD_TRACKING: bool(true),
  DOWNLOADS_MAX_RESULTS: int(100, 1, 1000),
  ACCESS_LOG: bool(true),
  // The key sealing the recipient's link and passcode (issue 34), the same on every instance; unset,
  // the process keeps one in DATA_DIR (recipientLinkKey.ts). The previous key still opens what it
  // sealed, for a rotation.
  RECIPIENT_LINK_KEY: key256,
  RECIPIENT_LINK_KEY_PREVIOUS: key256,
});

const ssoApplications = z.array(
  z.object({ name: z.string().min(1), icon: z.string().default(''), url: z.url({ protocol: /^https?$/ }) }),
);

/** `imaps://user:pass@host:993/INBOX` → its parts; undefined when it is not such a URL. */
function parseImapUrl(value: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const secure = url.protocol === 'imaps:';
  if ((!secure && url.protocol !== 'imap:') || !url.hostname || !url.username || !url.password)
    return undefined;
  try {
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 993 : 143,
      secure,
      user: decodeURIComponent(url.username),
      pass: decodeURIComponent(url.password),
      mailbox: decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX',
    };
  } catch {
    // A malformed percent escape in the user, password or mailbox.
    return undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The keys sealing the recipient's links. `current` seals and opens, `previous` only opens; no
 * `current` (a configuration not yet given its key file) seals nothing.
 */
export interface RecipientLinkKeys {
  current?: Buffer | undefined;
  previous?: Buffer | undefined;
}

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof envSchema>) {
  if (env.SSO_ISSUER_URL && !env.SSO_CLIENT_ID) {
    throw new ConfigError('Invalid environment variable SSO_CLIENT_ID: required when SSO_ISSUER_URL is set');
  }
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    seedDemo: env.SEED_DEMO,
    adminPassword: env.ADMIN_PASSWORD,
    demoPassword: env.DEMO_PASSWORD,
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY,
    session: { idleMinutes: env.SESSION_IDLE_MINUTES, absoluteHours: env.SESSION_ABSOLUTE_HOURS },
    signin: {
      maxFailures: env.SIGNIN_MAX_FAILURES,
      lockMinutes: env.SIGNIN_LOCK_MINUTES,
      ipLimitPerWindow: env.SIGNIN_IP_LIMIT,
      passkeySignIn: env.PASSKEY_SIGNIN,
      rememberDevice: env.SIGNIN_REMEMBER_DEVICE,
    },
    selfRegistration: env.SELF_REGISTRATION,
    selfRegistrationScope: env.SELF_REGISTRATION_SCOPE,
    bodyLimit: env.BODY_LIMIT_BYTES,
    dbPoolSize: env.DB_POOL_SIZE,
    operations: {
      metricsToken: env.METRICS_TOKEN,
      maxEventLoopDelayMs: env.OVERLOAD_EVENT_LOOP_DELAY_MS,
      drainSeconds: env.SHUTDOWN_DRAIN_SECONDS,
    },
    services: env.SERVICES,
    logLevel: env.LOG_LEVEL,
    checkAnswers: env.CHECK_ANSWERS,
    webDevServer: env.WEB_DEV_SERVER,
    webDistDir: env.WEB_DIST_DIR,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, faxGatewayAddress: env.FAX_GATEWAY_ADDRESS },
    mailIn: {
      listenPort: env.SMTP_LISTEN_PORT < 0 ? undefined : env.SMTP_LISTEN_PORT,
      inboxAddress: env.INBOX_ADDRESS.toLowerCase(),
      maxMessageBytes: env.SMTP_MAX_MESSAGE_MB * 1024 * 1024,
      imap: env.IMAP_URL ? { ...env.IMAP_URL, pollSeconds: env.IMAP_POLL_SECONDS } : undefined,
    },
    webhooks: { allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK, caFile: env.WEBHOOKS_CA_FILE },
    downloads: { tracking: env.RESULT_FILE_DOWNLOAD_TRACKING, maxResults: env.DOWNLOADS_MAX_RESULTS },
    /** Off only to measure what it costs (bench): every read of a request's personal data is logged. */
    accessLog: env.ACCESS_LOG,
    recipientLinkKeys: {
      current: env.RECIPIENT_LINK_KEY,
      previous: env.RECIPIENT_LINK_KEY_PREVIOUS,
    } as RecipientLinkKeys,
    api: {
      audience:
        env.API_AUDIENCE ?? (env.PUBLIC_URL ? `${env.PUBLIC_URL.replace(/\/+$/, '')}/api/v1` : 'dossier-api'),
      rateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
    },
    sso:
      env.SSO_ISSUER_URL && env.SSO_CLIENT_ID
        ? {
            issuerUrl: env.SSO_ISSUER_URL,
            clientId: env.SSO_CLIENT_ID,
            clientSecret: env.SSO_CLIENT_SECRET,
            passwordHandling: env.SSO_PASSWORD_HANDLING,
            applications: env.SSO_APPLICATIONS,
            allowHttp: env.SSO_ALLOW_HTTP,
            ...(env.SSO_SECOND_FACTOR_ACR.length > 0 ? { secondFactorAcr: env.SSO_SECOND_FACTOR_ACR } : {}),
            ...(env.SSO_BREAK_GLASS_USER ? { breakGlassUser: env.SSO_BREAK_GLASS_USER.toLowerCase() } : {}),
          }
        : undefined,
    files: {
      dir: path.resolve(env.FILES_DIR ?? path.join(env.DATA_DIR, 'files')),
      maxBytes: env.FILES_MAX_MB * 1024 * 1024,
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            endpoint: env.S3_ENDPOINT,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    },
  };
}

export class ConfigError extends Error {}

/** What the address of the app is made of; port and host matter only without PUBLIC_URL. */
export type AppAddress = Pick<Config, 'publicUrl'> & Partial<Pick<Config, 'port' | 'host'>>;

/**
 * The absolute address of the app for links sent away from a request (mails, letters): PUBLIC_URL,
 * else the address it is served on. Never the Host header of some request: a forged one would put
 * someone else's site into the links mailed to other people.
 */
export function appUrlOf(config: AppAddress | undefined): string {
  if (config?.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const host = config?.host;
  const name =
    !host || ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(host)
      ? 'localhost'
      : host.includes(':')
        ? `[${host}]`
        : host;
  return `http://${name}:${config?.port ?? 3000}`;
}

/** Reads the configuration; throws a ConfigError whose message is one line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `Invalid environment variable ${String(issue.path[0])}: ${issue.message}`,
    );
    throw new ConfigError(lines.join('\n'));
  }
  return toConfig(result.data);
}

const TEST_RECIPIENT_LINK_KEY = randomBytes(32);

/** A configuration for tests: defaults plus overrides, no environment read. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // No 503 for a busy event loop: tests share a busy machine, and the overload answer has its own
  // test (operations.test.ts), which sets the threshold it needs.
  return {
    ...loadConfig({
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
      CHECK_ANSWERS: 'true',
    }),
    // A key of the test process, as RECIPIENT_LINK_KEY would give (no key file is written).
    recipientLinkKeys: { current: TEST_RECIPIENT_LINK_KEY },
    ...overrides,
  };
}
