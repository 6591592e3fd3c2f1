//! `serve`: the game's web page. A local HTTP server (axum on tokio) serves one page that draws
//! the board from the game's [`View`], takes moves by clicking, plays the engine, keeps each
//! game's moves as a tree of variations to navigate, promote and prune, and streams a running
//! analysis; many tabs each have their own game.
//!
//! What it refuses, so that a page on another site cannot use it ([`access`]): a request
//! whose `Host` is not this server (`localhost`, `127.0.0.1` or `[::1]` with the port it
//! listens on, its `--listen` address, or a name given with `--allow-host`: DNS rebinding
//! gets 403); a `POST`, `PUT`, `PATCH` or `DELETE` whose `Origin` is another site (403); a
//! `POST`, `PUT` or `PATCH` without `Content-Type: application/json`, even with an empty body
//! (415: a form or a "simple" cross-site request cannot send it). A request's headers, each
//! piece of its body, and the next request on a kept-alive connection must come within
//! `--read-timeout-ms` ([`listen`]); all running searches' tables together stay within
//! `--max-memory` megabytes ([`budget`]: a search that does not fit is refused, 503 while
//! others hold the memory, 400 if it alone is over the limit). Endgame tables (`--tables`,
//! as for `analyze`) come from one source for all requests: each search takes those ready
//! at its start, read from the tables cache or built in the background (their memory is not
//! counted in `--max-memory`); a searcher that does not use tables searches without.
//!
//! Key invariants: it listens on 127.0.0.1 unless `--listen` names another address; searches
//! run on blocking threads, never on the runtime's workers, so the server answers while they
//! run; the page's files are in the binary.

mod access;
mod api;
mod budget;
mod edit_error;
mod listen;
mod page;
mod session;
mod tree;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use plies_view::View;

use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::store::StoreArgs;
use crate::tables::{TableSource, TablesArgs, log_sink};

/// The default of `--read-timeout-ms`.
const DEFAULT_READ_TIMEOUT_MS: u64 = 10_000;

/// `serve`.
#[derive(Args, Debug)]
#[command(after_help = "\
Requests from other web sites are refused: the Host header must be this server \
(localhost, 127.0.0.1 or [::1] with the port, the --listen address, or an --allow-host name), \
a POST/PUT/PATCH/DELETE whose Origin is another site gets 403, and a POST/PUT/PATCH needs \
Content-Type: application/json (415 otherwise). Headers, each piece of a body and the next \
request on an idle connection must arrive within --read-timeout-ms. All running searches' \
tables (a PVS search its tt= megabytes, MCTS 64 MB a thread) share --max-memory: a search \
that does not fit is refused.")]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, takes connections from this machine
    /// only; another address (such as 0.0.0.0) lets anyone who can reach it play, analyse and
    /// start searches on this machine.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Games kept in memory (a new game beyond that replaces the one left alone longest).
    #[arg(long, default_value_t = 256, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=usize::MAX as u64))]
    pub max_games: usize,
    /// Megabytes the tables of all running searches may take together (a PVS search counts
    /// its transposition table, `tt=`, 16 by default; MCTS 64 a thread). A search that does
    /// not fit is refused with an error naming this limit.
    #[arg(long, value_name = "MB", default_value_t = budget::DEFAULT_MAX_MEMORY_MB as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub max_memory: u64,
    /// Milliseconds a client may take to send a request's headers or the next piece of its
    /// body, and a connection may stay idle between requests, before it is closed.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_READ_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub read_timeout_ms: u64,
    /// Another name (with `:PORT`, another port) this server is reached by, such as this
    /// machine's name on the network with `--listen 0.0.0.0`; repeatable. Requests naming
    /// any other host are refused.
    #[arg(long, value_name = "HOST[:PORT]")]
    pub allow_host: Vec<access::AllowedHost>,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Has the allocator map every allocation of a megabyte or more on its own, and unmap it when
/// freed. By default glibc raises that threshold to the size of the last such block freed (up
/// to 32 MB), after which a search's 16 MB table comes from a malloc arena and stays there when
/// freed: with many threads (one arena each) the process then keeps far more memory than the
/// budget allows in use at once. Other platforms' allocators are left as they are.
fn return_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a setting of the allocator; it is called before the
    // server's threads start and takes no pointer.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Runs the server until the process is interrupted.
///
/// # Errors
/// A bad start position, or the address cannot be listened on.
pub(crate) fn run<G: View>(
    spec: &GameCli<G>,
    args: &ServeArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let start: G = start_position(&args.start)?;
    let store = args.store.open_shared(spec.name)?;
    return_large_allocations();
    let address = SocketAddr::new(args.listen, args.port);
    let listener = std::net::TcpListener::bind(address)
        .map_err(|e| CliError::Invalid(format!("cannot listen on {address}: {e}")))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let url = format!("http://{bound}/");
    writeln!(output, "{} page at {url} (Ctrl-C stops)", spec.name)?;
    if let Some(store) = &store {
        writeln!(
            output,
            "analyses read from and written to the store {}",
            store.path().display()
        )?;
    }
    output.flush()?;
    if args.open {
        open_browser(&url, output)?;
    }
    let read_timeout = Duration::from_millis(args.read_timeout_ms);
    let limits = api::Limits {
        max_games: args.max_games,
        max_search_ms: api::MAX_SEARCH_MS,
        max_memory_mb: usize::try_from(args.max_memory).unwrap_or(usize::MAX),
        read_timeout,
        access: access::Access::new(args.listen, bound.port(), args.allow_host.clone()),
    };
    let tables = TableSource::new(spec, &args.tables, 2)?.with_sink(log_sink());
    let mut app = api::App::new(spec.name, spec.evaluator.clone(), start, limits);
    app.tables = (tables.pieces() > 0).then(|| Arc::new(tables));
    app.store = store.map(Arc::new);
    let app = Arc::new(app);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let stopper = Arc::clone(&app);
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let router = api::router(app).layer(tower_http::trace::TraceLayer::new_for_http());
        listen::serve(listener, router, read_timeout, async move {
            let _ = tokio::signal::ctrl_c().await;
            stopper.stop_all();
        })
        .await;
        Ok::<(), std::io::Error>(())
    })?;
    Ok(())
}

/// Asks the desktop to open `url`; says so when it cannot (the URL is printed anyway).
fn open_browser(url: &str, output: &mut dyn Write) -> Result<(), CliError> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(err) = std::process::Command::new(opener).arg(url).spawn() {
        writeln!(
            output,
            "could not open a browser ({opener}: {err}); open {url}"
        )?;
    }
    Ok(())
}

/// The page's routes for `spec`'s game starting at `start`, without a server: at most
/// `max_games` games kept, searches of at most `max_search_ms` each. For tests and fuzzing
/// (requests go through it in process); `serve` runs the same routes, with the same rules as
/// `serve --port 80` on 127.0.0.1 (a request's `Host` is `localhost`, `127.0.0.1` or `[::1]`,
/// without a port or with `:80`) and the default memory budget and read timeout.
///
/// Only with the feature `serve` (on by default).
pub fn page_router<G: View>(
    spec: &GameCli<G>,
    start: G,
    max_games: usize,
    max_search_ms: u64,
) -> axum::Router {
    api::router(Arc::new(api::App::new(
        spec.name,
        spec.evaluator.clone(),
        start,
        api::Limits {
            max_games: max_games.max(1),
            max_search_ms: max_search_ms.max(1),
            max_memory_mb: budget::DEFAULT_MAX_MEMORY_MB,
            read_timeout: Duration::from_millis(DEFAULT_READ_TIMEOUT_MS),
            access: access::Access::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 80, Vec::new()),
        },
    )))
}

#[cfg(test)]
mod tests;
