// Which database a board uses: a SQLite file under the data dir (the embedded default) or a
// PostgreSQL server named by a postgresql:// URL. Owns telling the two apart and describing a
// target without its password (logs, errors).
export type DbTarget = { provider: "sqlite"; file: string } | { provider: "postgresql"; url: string };

const isPostgresUrl = (s: string) => /^postgres(ql)?:\/\//i.test(s);

/** A postgresql:// URL is PostgreSQL; anything else is a SQLite file path. */
export function dbTarget(fileOrUrl: string): DbTarget {
  return isPostgresUrl(fileOrUrl)
    ? { provider: "postgresql", url: fileOrUrl }
    : { provider: "sqlite", file: fileOrUrl };
}

/** The target as a person may see it: the file, or the URL with any password replaced by ***. */
export function describeTarget(t: DbTarget): string {
  if (t.provider === "sqlite") return t.file;
  try {
    const u = new URL(t.url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgresql://(unparsable URL)";
  }
}

/** Checks a PostgreSQL URL (from --database-url or DATABASE_URL); returns it or throws saying what is wrong. */
export function parseDatabaseUrl(value: string): string {
  if (!isPostgresUrl(value))
    throw new Error("the database URL must be a postgresql:// URL (SQLite needs none: it lives in the data dir)");
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error("the database URL is not a URL (e.g. postgresql://user:password@host:5432/switchyard)");
  }
  if (!u.hostname) throw new Error("the database URL names no host");
  if (u.pathname.length <= 1) throw new Error("the database URL names no database (…/switchyard at its end)");
  return value;
}

/**
 * The board's PostgreSQL URL: `--database-url` when given, else YARD_DATABASE_URL or DATABASE_URL
 * when it is a postgresql:// URL (another kind, e.g. an app's file: URL, is not ours and is left
 * alone); null means the embedded SQLite. The variables holding it are taken out of `env`, so no
 * child of the server (the pane host, agents, setup scripts, git) inherits the board's database
 * credentials: an agent with them could rewrite its own review.
 */
export function takeDatabaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  let url = flag ? parseDatabaseUrl(flag) : null;
  for (const name of ["YARD_DATABASE_URL", "DATABASE_URL"]) {
    const v = env[name];
    if (!v || !isPostgresUrl(v)) continue;
    url ??= parseDatabaseUrl(v);
    delete env[name];
  }
  return url;
}
