//! A throwaway PostgreSQL server for the store's tests ([`Server::shared`]): `initdb` into a
//! temporary directory, `pg_ctl start` on a free localhost port and a Unix socket in that
//! directory, one database per test ([`Server::database`]).
//!
//! Key invariants: the server is started at most once per test process and stops when that
//! process ends (a shell beside it waits for its standard input to close, then stops the
//! server and removes the directory); run as root, every server command runs as the
//! unprivileged `postgres` user (PostgreSQL refuses root), and the directory is that user's;
//! where no PostgreSQL is installed, [`Server::shared`] says why, and the tests skip.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The superuser the tests connect as.
pub const SUPERUSER: &str = "plies";

/// A role that must log in with a password ([`PASSWORD`]) over TCP.
pub const PASSWORD_ROLE: &str = "secret";

/// [`PASSWORD_ROLE`]'s password.
pub const PASSWORD: &str = "right";

/// A running server.
pub struct Server {
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    /// The directory of its Unix socket.
    pub socket_dir: PathBuf,
    /// The shell that stops the server when this process ends (its standard input open).
    _keeper: Mutex<Child>,
}

/// The directories of PostgreSQL's programs to try: those on `PATH`, then
/// `/usr/lib/postgresql/*/bin` (the newest first).
fn bin_dir() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| entries.flatten().map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    versions.sort();
    dirs.extend(versions.into_iter().rev());
    dirs.into_iter().find(|dir| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|p| dir.join(p).is_file())
    })
}

/// Whether this process runs as root (PostgreSQL then runs as the `postgres` user).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

impl Server {
    /// The server of this test process, started on first use; `Err` says why there is none
    /// (PostgreSQL not installed, or it did not start).
    pub fn shared() -> Result<&'static Server, String> {
        static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();
        SERVER
            .get_or_init(Server::start)
            .as_ref()
            .map_err(Clone::clone)
    }

    fn start() -> Result<Server, String> {
        let bin = bin_dir().ok_or_else(|| {
            "PostgreSQL is not installed (no initdb, pg_ctl and postgres on PATH or in \
             /usr/lib/postgresql/*/bin)"
                .to_string()
        })?;
        let dir = std::env::temp_dir().join(format!("plies-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let root = is_root();
        if root {
            let status = Command::new("chown")
                .args(["postgres:", dir.to_str().unwrap_or_default()])
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err("chown of the server's directory to postgres failed".into());
            }
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("a free port: {e}"))?
            .port();
        let as_user = if root { "runuser -u postgres -- " } else { "" };
        let hba = format!(
            "local all all trust\nhost all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n\
             host all all 127.0.0.1/32 trust\n"
        );
        // Started, then kept until this process's end closes the shell's standard input.
        let script = format!(
            r#"set -e
cd "$DIR"
{as_user}"$BIN/initdb" -D "$DIR/data" -U {SUPERUSER} -A trust --no-sync >"$DIR/initdb.log" 2>&1
printf '%s' "$HBA" > "$DIR/data/pg_hba.conf"
{as_user}"$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB -c max_connections=60" start >/dev/null
echo started
read -r _ || true
{as_user}"$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
rm -rf "$DIR"
"#
        );
        let mut keeper = Command::new("sh")
            .args(["-c", &script])
            .env("DIR", &dir)
            .env("BIN", &bin)
            .env("PORT", port.to_string())
            .env("HBA", hba)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("sh: {e}"))?;
        let mut line = String::new();
        let stdout = keeper.stdout.take().ok_or("no stdout")?;
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .map_err(|e| e.to_string())?;
        if line.trim() != "started" {
            let log = std::fs::read_to_string(dir.join("server.log"))
                .or_else(|_| std::fs::read_to_string(dir.join("initdb.log")))
                .unwrap_or_default();
            let _ = keeper.wait();
            return Err(format!("PostgreSQL did not start: {}", log.trim()));
        }
        let server = Server {
            port,
            socket_dir: dir,
            _keeper: Mutex::new(keeper),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match server.admin() {
                Ok(mut client) => {
                    client
                        .batch_execute(&format!(
                            "CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'"
                        ))
                        .map_err(|e| e.to_string())?;
                    return Ok(server);
                }
                Err(e) if Instant::now() > deadline => return Err(e.to_string()),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// A superuser's connection to the `postgres` database.
    pub fn admin(&self) -> Result<postgres::Client, postgres::Error> {
        self.client("postgres")
    }

    /// A superuser's connection to the database `name`.
    pub fn client(&self, name: &str) -> Result<postgres::Client, postgres::Error> {
        postgres::Client::connect(&self.url(name), postgres::NoTls)
    }

    /// The TCP URL of the database `name` for the superuser.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
    }

    /// The URL of the database `name` over the Unix socket.
    pub fn socket_url(&self, name: &str) -> String {
        format!(
            "postgresql:///{name}?host={}&port={}&user={SUPERUSER}",
            self.socket_dir.display(),
            self.port
        )
    }

    /// A new empty database `name` (dropped first if a run before left it); its TCP URL.
    pub fn database(&self, name: &str) -> String {
        let mut admin = self.admin().expect("the test server answers");
        // One statement each: CREATE DATABASE runs outside a transaction block.
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\""))
            .expect("a test database dropped");
        admin
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .expect("a test database");
        self.url(name)
    }

    /// The directory the server's files are in.
    pub fn dir(&self) -> &Path {
        &self.socket_dir
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(mut keeper) = self._keeper.lock()
            && let Some(stdin) = keeper.stdin.as_mut()
        {
            let _ = stdin.write_all(b"\n");
        }
    }
}
