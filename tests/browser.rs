//! The web page of `serve` in a real browser (headless Chromium through chromedriver), for
//! every bundled game: the page loads, a human (a seeded random player clicking the board and
//! the panels) plays a whole game against the engine, an analysis streams its iterations into
//! the table and is stopped, the game-over banner shows the outcome, and the browser's console
//! has no error. A screenshot of each finished game goes to `target/browser-screenshots/`
//! (and to `docs/images/` with `PLIES_UPDATE_SCREENSHOTS=1`, for the README). Two races of
//! the page are checked too: "New game" while the engine thinks, and an analysis that ends
//! before the page has read that it started. For every game, too: the address carries the game
//! (a reload, and the address opened in a second browser session on a restarted server, show
//! the same move; the reloaded page's old game and its search are let go), the keys (arrows,
//! Home, End, `f`) and the Flip button, and the layout (no horizontal scrolling 390 and 1280 px
//! wide, light and dark; the dark scheme's background dark). And for Kalah: a position analysed
//! shows its stored evaluation after the server restarts on the same position store.
//!
//! Key invariant: every human move is made only by clicking the page's elements, the ids of
//! the chosen legal move's `clicks` in order, exactly as a person would; after every human
//! move (and the engine's replies) the page shows what the server holds: the same position
//! text and the same move list, and the move played is the one chosen.
//!
//! Needs `chromium` and `chromedriver` on PATH (Debian: `chromium`, `chromium-driver`; CI
//! installs them) and fails when they are missing, unless `PLIES_SKIP_BROWSER=1`. The games
//! run one after another, one browser session each; each game's server runs in this process
//! on a thread of its own, to the end of the test process.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::{Duration, Instant};

use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use plies::rng::SplitMix64;
use plies_cli::{GameCli, evaluator, tunable_evaluator};
use plies_view::View;
use serde_json::{Value, json};

/// Milliseconds per engine move (the page's `#time`).
const ENGINE_MS: u64 = 30;

/// Milliseconds of the analysis (`#analysis-time`).
const ANALYSIS_MS: u64 = 500;

/// The longest wait for the page to settle after a click (the engine's replies included) or
/// for anything else the page is waited for.
const PATIENCE: Duration = Duration::from_secs(20);

/// Between two looks at the page while waiting.
const POLL: Duration = Duration::from_millis(15);

/// One game to play in the browser.
struct Case<G: View> {
    /// The game's name: the program name, the screenshot's file name.
    name: &'static str,
    /// The game's command line.
    cli: fn() -> GameCli<G>,
    /// Arguments of `serve` beyond the port.
    args: &'static [&'static str],
    /// The page's mode: the human plays `first` or `second`.
    mode: &'static str,
    /// A game not over after this many plies fails the test.
    max_plies: usize,
    /// The seed of the human's choices.
    seed: u64,
}

impl<G: View> Case<G> {
    /// Two humans at the board, no game to be finished: a case for the page's own tests.
    fn humans(
        name: &'static str,
        cli: fn() -> GameCli<G>,
        args: &'static [&'static str],
        seed: u64,
    ) -> Case<G> {
        Case {
            name,
            cli,
            args,
            mode: "humans",
            max_plies: 0,
            seed,
        }
    }
}

fn onitama() -> GameCli<plies_onitama::Onitama> {
    GameCli::new(
        "onitama",
        tunable_evaluator(plies_onitama::PstEvaluator::tuned()),
    )
}

fn hus() -> GameCli<plies_hus::Hus> {
    GameCli::new("hus", tunable_evaluator(plies_hus::HusEvaluator::tuned()))
}

fn yinsh() -> GameCli<plies_yinsh::Yinsh> {
    GameCli::new(
        "yinsh",
        tunable_evaluator(plies_yinsh::YinshEvaluator::tuned()),
    )
}

fn kalah() -> GameCli<plies_kalah::Kalah> {
    GameCli::new("kalah", evaluator(plies_kalah::StoreDifference::default()))
}

#[test]
fn onitama_is_played_in_the_browser() {
    browser_game(&Case {
        name: "onitama",
        cli: onitama,
        args: &[],
        mode: "first",
        max_plies: 200,
        seed: 1,
    });
}

#[test]
fn brandub_is_played_in_the_browser() {
    browser_game(&Case {
        name: "tafl",
        cli: plies_tafl_cli::tafl_cli,
        args: &["--variant", "brandub"],
        mode: "second",
        max_plies: 300,
        seed: 2,
    });
}

#[test]
fn hus_is_played_in_the_browser() {
    browser_game(&Case {
        name: "hus",
        cli: hus,
        args: &[],
        mode: "second",
        max_plies: 300,
        seed: 3,
    });
}

#[test]
fn yinsh_is_played_in_the_browser() {
    browser_game(&Case {
        name: "yinsh",
        cli: yinsh,
        args: &[],
        mode: "first",
        max_plies: 300,
        seed: 4,
    });
}

#[test]
fn kalah_is_played_in_the_browser() {
    browser_game(&Case {
        name: "kalah",
        cli: kalah,
        args: &[],
        mode: "first",
        max_plies: 200,
        seed: 5,
    });
}

/// "New game" while the engine thinks: the page goes on with the new game; the old game's
/// answer (its search ends at once, as the page lets the old game go) does not replace it.
#[test]
fn a_new_game_while_the_engine_thinks_stays_shown() {
    let case = Case {
        name: "onitama",
        cli: onitama,
        args: &[],
        mode: "first",
        max_plies: 0,
        seed: 0,
    };
    with_page(&case, new_game_while_thinking);
}

/// An analysis that ends at once (a win in one, proven at depth 1): the page says it is done
/// and takes the next move.
#[test]
fn an_analysis_that_ends_at_once_is_done() {
    let case = Case::humans("onitama", onitama, &[], 0);
    with_page(&case, analysis_ending_at_once);
}

/// Records: a line of moves set up from the record box, "Show record" fills the box with the
/// game's log (the server's record), and that log set up again gives the same game.
#[test]
fn records_are_shown_and_set_up() {
    let case = Case::humans("hus", hus, &[], 0);
    with_page(&case, records_in_page);
}

/// tafl's variant picker: a variant picked starts a game of it, with its name and one-line
/// description shown and its full rules on demand, its special squares in tafl's colours.
#[test]
fn a_tafl_variant_is_picked() {
    let case = Case::humans(
        "tafl",
        plies_tafl_cli::tafl_cli,
        &["--variant", "brandub"],
        0,
    );
    with_page(&case, variant_picked);
}

/// The set-up box reads a position and moves on one line (Onitama's position has spaces).
#[test]
fn a_position_and_moves_are_set_up_on_one_line() {
    let case = Case::humans("onitama", onitama, &[], 0);
    with_page(&case, one_line_set_up);
}

/// A move made by dragging a piece to its square (Onitama after its card is clicked, tafl).
#[test]
fn moves_are_dragged_and_dropped() {
    let case = Case::humans("onitama", onitama, &[], 21);
    with_page(&case, dragged);
    let case = Case::humans(
        "tafl",
        plies_tafl_cli::tafl_cli,
        &["--variant", "brandub"],
        22,
    );
    with_page(&case, dragged);
}

/// A position analysed on the page is in the store: after the server restarts on the same
/// store file, the address opened in another browser shows the stored evaluation (the depth
/// and the score of the analysis's last iteration) at once, with no search running.
#[test]
fn a_stored_evaluation_is_shown_after_a_restart() {
    let store = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("browser-store-{}.sqlite", std::process::id()));
    let remove = || {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", store.display()));
        }
    };
    remove();
    let path: &'static str = Box::leak(store.display().to_string().into_boxed_str());
    let args: &'static [&'static str] = Box::leak(Box::new(["--store", path]));
    with_page(
        &Case::humans("kalah", kalah, args, 16),
        stored_after_restart,
    );
    remove();
}

/// The page's address, the keys and the layout, for every game: each test plays a few moves by
/// clicking, two humans at the board (mode `humans`), and then checks one thing.
macro_rules! page_tests {
    ($($game:ident: $name:literal, $cli:expr, $args:expr, $seed:literal;)*) => {$(
        mod $game {
            use super::*;

            /// The address carries the game and the move shown: a reload shows them again and
            /// lets the old game (and its search) go; the address opened in a second browser
            /// session, on a restarted server, shows the same position.
            #[test]
            fn the_address_survives_a_reload_and_a_restart() {
                with_page(&case(), address_kept);
            }

            /// Arrow keys, Home and End step through the moves (not while typing in a box);
            /// `f` and the Flip button turn the board round; playing the second side turns it
            /// round by itself; "Copy position" shows the position's text to copy.
            #[test]
            fn keys_step_through_the_moves_and_flip_the_board() {
                with_page(&case(), keys_and_flip);
            }

            /// No horizontal scrolling on a phone (390 px) or a desktop (1280 px), in the light
            /// and the dark scheme; the dark scheme has a dark background.
            #[test]
            fn the_page_fits_phone_and_desktop_light_and_dark() {
                with_page(&case(), layout);
            }

            /// Playing another move at an earlier position starts a variation, shown in the
            /// move list; the keys step along it; a click on the main line goes back there;
            /// "Make main line" promotes it; a reload keeps the tree and the move shown.
            #[test]
            fn variations_are_made_navigated_and_promoted() {
                with_page(&case(), variations);
            }

            /// The analysis, once on, follows the position shown as the keys step back, shows
            /// the lines asked for, its best move and the evaluation bar; a move of a line
            /// clicked plays the line up to it.
            #[test]
            fn the_analysis_follows_the_position_shown() {
                with_page(&case(), analysis_follows);
            }

            fn case() -> Case<impl View> {
                Case::humans($name, $cli, $args, $seed)
            }
        }
    )*};
}

page_tests! {
    onitama_page: "onitama", onitama, &[], 11;
    tafl_page: "tafl", plies_tafl_cli::tafl_cli, &["--variant", "brandub"], 12;
    hus_page: "hus", hus, &[], 13;
    yinsh_page: "yinsh", yinsh, &[], 14;
    kalah_page: "kalah", kalah, &[], 15;
}

/// The browser and its driver, found on PATH.
struct Tools {
    chromium: PathBuf,
    chromedriver: PathBuf,
}

/// The first of `names` that is a file in a PATH directory.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The tools, or `None` when the test is to be skipped (`PLIES_SKIP_BROWSER=1`).
///
/// # Panics
/// A tool is missing (and the test is not skipped).
fn tools() -> Option<Tools> {
    if std::env::var("PLIES_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("browser test skipped (PLIES_SKIP_BROWSER=1)");
        return None;
    }
    let chromium = on_path(&["chromium", "chromium-browser"]);
    let chromedriver = on_path(&["chromedriver"]);
    match (chromium, chromedriver) {
        (Some(chromium), Some(chromedriver)) => Some(Tools {
            chromium,
            chromedriver,
        }),
        (chromium, chromedriver) => {
            let missing: Vec<&str> = [
                chromium.is_none().then_some("chromium"),
                chromedriver.is_none().then_some("chromedriver"),
            ]
            .into_iter()
            .flatten()
            .collect();
            panic!(
                "the browser test needs {} on PATH: install the Debian packages chromium and \
                 chromium-driver (`apt-get install chromium chromium-driver`; .ci/run does), \
                 or set PLIES_SKIP_BROWSER=1 to skip this test",
                missing.join(" and ")
            )
        }
    }
}

/// One browser game at a time (the machine may have 2 cores; the engine's moves are timed).
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Plays `case` in the browser; panics with what went wrong.
fn browser_game<G: View>(case: &Case<G>) {
    if let Some((report, took)) = with_page(case, play_in_page) {
        eprintln!(
            "{}: {} plies ({} by the human clicking), {} analysis rows, {}, in {:.1} s",
            case.name,
            report.plies,
            report.human_plies,
            report.analysis_rows,
            report.outcome,
            took.as_secs_f64()
        );
    }
}

/// Starts `case`'s server and a browser session, and runs `body` on the page; its answer and
/// the time it all took, or `None` when the test is skipped. Panics with what went wrong.
fn with_page<G: View, T, F>(case: &Case<G>, body: fn(Client, Setup) -> F) -> Option<(T, Duration)>
where
    T: Send + 'static,
    F: Future<Output = Result<T, String>> + Send + 'static,
{
    let tools = tools()?;
    let _turn = one_at_a_time();
    let started = Instant::now();
    let url = serve(case);
    let (name, make, args) = (case.name, case.cli, case.args);
    let setup = Setup {
        name: case.name,
        url,
        mode: case.mode,
        max_plies: case.max_plies,
        seed: case.seed,
        restart: Arc::new(move || serve_game(name, make, args)),
        browser: None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(in_browser(&tools, setup, body)) {
        Ok(answer) => Some((answer, started.elapsed())),
        Err(err) => panic!("{}: {err}", case.name),
    }
}

/// Passes what the server prints, line by line, to a channel.
struct Lines {
    sender: mpsc::Sender<String>,
    pending: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            // The test may have given up waiting: not the server's error.
            let _ = self
                .sender
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts `case`'s page server on a free port (`serve --port 0`, through `plies_cli::run` as
/// the bot's `main` does) on a thread; its base URL, as printed.
fn serve<G: View>(case: &Case<G>) -> String {
    serve_game(case.name, case.cli, case.args)
}

/// Starts the page server of the game `name` (made by `make`, `serve` given `extra`) on a free
/// port; its base URL. A second call is the server restarted: it knows none of the first's
/// games.
fn serve_game<G: View>(
    name: &'static str,
    make: fn() -> GameCli<G>,
    extra: &'static [&'static str],
) -> String {
    let (sender, receiver) = mpsc::channel();
    let args: Vec<String> = [name, "serve", "--port", "0"]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
    std::thread::Builder::new()
        .name(format!("{name} server"))
        .spawn(move || {
            let spec = make();
            let mut output = Lines {
                sender: sender.clone(),
                pending: Vec::new(),
            };
            let mut input = std::io::empty();
            if let Err(err) = plies_cli::run(&spec, args, &mut input, &mut output) {
                let _ = sender.send(format!("error: {err}"));
            }
        })
        .expect("a server thread");
    let line = receiver
        .recv_timeout(PATIENCE)
        .unwrap_or_else(|e| panic!("{name}: the server printed no URL: {e}"));
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("{name}: no URL in the server's line {line:?}"));
    url.to_string()
}

/// `GET path` from the server at `base` (`http://127.0.0.1:PORT/`): the JSON answer.
fn get_json(base: &str, path: &str) -> Result<Value, String> {
    let address = base
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let fail = |e: std::io::Error| format!("GET {path}: {e}");
    let mut stream = TcpStream::connect(&address).map_err(fail)?;
    stream.set_read_timeout(Some(PATIENCE)).map_err(fail)?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(fail)?;
    let mut text = String::new();
    stream.read_to_string(&mut text).map_err(fail)?;
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("GET {path}: no HTTP answer: {text:?}"))?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("GET {path}: {head} {body}"));
    }
    serde_json::from_str(body).map_err(|e| format!("GET {path}: {e}: {body}"))
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

/// A running chromedriver, killed when dropped (the test failed or not), and the scratch
/// folder of the browser's profile, removed then.
struct Driver {
    child: Child,
    port: u16,
    scratch: PathBuf,
}

impl Driver {
    /// Starts chromedriver on a free port, its log in `scratch`; waits until it listens.
    fn start(chromedriver: &Path, scratch: PathBuf) -> Result<Driver, String> {
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        let port = free_port();
        let log = std::fs::File::create(scratch.join("chromedriver.log"))
            .map_err(|e| format!("chromedriver log: {e}"))?;
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", chromedriver.display()))?;
        let driver = Driver {
            child,
            port,
            scratch,
        };
        let since = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if since.elapsed() > PATIENCE {
                return Err(format!("chromedriver does not listen on port {port}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(driver)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// What `browser_game` hands the browser part.
#[derive(Clone)]
struct Setup {
    name: &'static str,
    url: String,
    mode: &'static str,
    max_plies: usize,
    seed: u64,
    /// Starts another server of the same game (the server restarted); its base URL.
    restart: Arc<dyn Fn() -> String + Send + Sync>,
    /// Where to open more browser sessions (set by [`in_browser`]).
    browser: Option<Browser>,
}

/// What a second browser session needs: the driver's URL, the browser, a scratch folder for
/// the new session's profile (a browser context of its own).
#[derive(Clone)]
struct Browser {
    webdriver: String,
    chromium: PathBuf,
    scratch: PathBuf,
}

/// A new browser session (its own profile: no cookies, storage or history shared).
async fn session(browser: &Browser, profile: &str) -> Result<Client, String> {
    let profile = browser.scratch.join(profile);
    let mut capabilities = Capabilities::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": browser.chromium,
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1300,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    capabilities.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&browser.webdriver)
        .await
        .map_err(|e| format!("no browser session: {e}"))
}

/// How a game went.
struct Report {
    plies: usize,
    human_plies: usize,
    analysis_rows: usize,
    outcome: String,
}

/// Starts chromedriver and a browser session, runs `body` in it, and ends the session however
/// `body` went (a browser left running would outlive its driver).
async fn in_browser<T, F>(
    tools: &Tools,
    mut setup: Setup,
    body: fn(Client, Setup) -> F,
) -> Result<T, String>
where
    T: Send + 'static,
    F: Future<Output = Result<T, String>> + Send + 'static,
{
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "browser-{}-{}",
        setup.name,
        std::process::id()
    ));
    let driver = Driver::start(&tools.chromedriver, scratch)?;
    let browser = Browser {
        webdriver: format!("http://127.0.0.1:{}", driver.port),
        chromium: tools.chromium.clone(),
        scratch: driver.scratch.clone(),
    };
    let client = session(&browser, "profile").await?;
    setup.browser = Some(browser);
    // On a task of its own, so that a panic in it still ends the session below.
    let run = tokio::spawn(body(client.clone(), setup)).await;
    let closed = client.close().await;
    let answer = match run {
        Ok(answer) => answer?,
        Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
        Err(err) => return Err(format!("the game's task: {err}")),
    };
    closed.map_err(|e| format!("closing the browser session: {e}"))?;
    drop(driver);
    Ok(answer)
}

/// chromedriver's (legacy, still served) endpoint of the browser's console log; fantoccini
/// has no command for it.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

/// A Chrome DevTools command through chromedriver (`goog/cdp/execute`): how the test emulates
/// a phone's width and the dark colour scheme.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.cmd, "params": self.params}).to_string()),
        )
    }
}

/// What the page shows, as read by [`SEEN`].
#[derive(Debug)]
struct Seen {
    game: Option<String>,
    position: String,
    moves: Vec<String>,
    status: String,
    error: bool,
    banner: Option<String>,
    rows: usize,
    /// The move shown (`data-ply` on the body).
    ply: Option<usize>,
    /// The page's address.
    url: String,
    /// Whether the board is drawn turned round.
    flipped: bool,
    /// Lines of the analysis shown (`#lines`).
    lines: usize,
    /// What the analysis says of itself (`#analysis-state`).
    analysis: String,
    /// The node of the move tree shown (`data-node` on the body).
    node: Option<u64>,
    /// The stored analysis of the position shown, in words (`#stored`).
    stored: String,
}

/// Reads what the page shows.
const SEEN: &str = r##"
    const status = document.getElementById("status");
    const banner = document.getElementById("banner");
    return {
        game: document.body.dataset.game ?? null,
        position: document.getElementById("position").textContent,
        moves: Array.from(document.querySelectorAll("#moves .move.on-line"), (m) => m.dataset.move),
        status: status.textContent,
        error: status.classList.contains("error"),
        banner: banner.hidden ? null : banner.textContent,
        rows: document.querySelectorAll("#analysis tbody tr").length,
        lines: document.querySelectorAll("#lines .pv-line").length,
        analysis: document.getElementById("analysis-state").textContent,
        node: document.body.dataset.node ?? null,
        stored: document.getElementById("stored").textContent,
        ply: document.body.dataset.ply ?? null,
        url: location.href,
        flipped: document.getElementById("board").classList.contains("flipped"),
    };
"##;

/// The page of one game, and its server.
struct Page {
    client: Client,
    base: String,
}

impl Page {
    /// Loads the page of `setup`'s server; the page and the id of the game it shows.
    async fn open(client: Client, setup: &Setup) -> Result<(Page, String), String> {
        let page = Page {
            client,
            base: setup.url.clone(),
        };
        page.client
            .goto(&setup.url)
            .await
            .map_err(|e| format!("loading {}: {e}", setup.url))?;
        let seen = page
            .wait_for("the page's first game", |seen| seen.game.is_some())
            .await?;
        let id = seen.game.expect("waited for");
        Ok((page, id))
    }

    async fn seen(&self) -> Result<Seen, String> {
        let value = self
            .client
            .execute(SEEN, Vec::new())
            .await
            .map_err(|e| format!("reading the page: {e}"))?;
        let text = |key: &str| value[key].as_str().unwrap_or_default().to_string();
        Ok(Seen {
            game: value["game"].as_str().map(str::to_string),
            position: text("position"),
            moves: strings(&value["moves"]),
            status: text("status"),
            error: value["error"].as_bool().unwrap_or(false),
            banner: value["banner"].as_str().map(str::to_string),
            rows: value["rows"].as_u64().unwrap_or(0) as usize,
            ply: value["ply"].as_str().and_then(|ply| ply.parse().ok()),
            url: text("url"),
            flipped: value["flipped"].as_bool().unwrap_or(false),
            lines: value["lines"].as_u64().unwrap_or(0) as usize,
            analysis: text("analysis"),
            node: value["node"].as_str().and_then(|node| node.parse().ok()),
            stored: text("stored"),
        })
    }

    /// The server's game `id`.
    fn game(&self, id: &str) -> Result<Value, String> {
        get_json(&self.base, &format!("/api/games/{id}"))
    }

    /// Clicks the element with data-id `id` (a board cell or a panel item) as a user does: a
    /// pointer click at its centre, which must land on it.
    async fn click_id(&self, id: &str) -> Result<(), String> {
        let selector = format!(
            "[data-id=\"{}\"]",
            id.replace('\\', "\\\\").replace('"', "\\\"")
        );
        self.click(&selector).await
    }

    async fn click(&self, selector: &str) -> Result<(), String> {
        let element = self
            .client
            .find(Locator::Css(selector))
            .await
            .map_err(|e| format!("no {selector} on the page: {e}"))?;
        element
            .click()
            .await
            .map_err(|e| format!("clicking {selector}: {e}"))
    }

    /// Chooses `mode` (`first`, `second`, `engines`, `humans`) in the `#mode` list.
    async fn choose_mode(&self, mode: &str) -> Result<(), String> {
        self.client
            .find(Locator::Css("#mode"))
            .await
            .map_err(|e| format!("no #mode: {e}"))?
            .select_by_value(mode)
            .await
            .map_err(|e| format!("choosing mode {mode}: {e}"))
    }

    /// Types `value` into the input `#id` in place of what it held.
    async fn type_into(&self, id: &str, value: &str) -> Result<(), String> {
        let selector = format!("#{id}");
        let input = self
            .client
            .find(Locator::Css(&selector))
            .await
            .map_err(|e| format!("no {selector}: {e}"))?;
        input
            .clear()
            .await
            .map_err(|e| format!("clearing {selector}: {e}"))?;
        input
            .send_keys(value)
            .await
            .map_err(|e| format!("typing into {selector}: {e}"))
    }

    /// Fails if the browser's console has an error (`SEVERE`) entry.
    async fn no_console_errors(&self) -> Result<(), String> {
        let log = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .map_err(|e| format!("reading the console log: {e}"))?;
        let severe: Vec<&Value> = log
            .as_array()
            .into_iter()
            .flatten()
            .filter(|entry| entry["level"] == "SEVERE")
            .collect();
        if severe.is_empty() {
            Ok(())
        } else {
            Err(format!("errors in the browser's console: {severe:?}"))
        }
    }

    /// Runs `script` in the page; its answer.
    async fn js(&self, script: &str) -> Result<Value, String> {
        self.client
            .execute(script, Vec::new())
            .await
            .map_err(|e| format!("running {script:?}: {e}"))
    }

    /// Sends `cdp` to the browser.
    async fn cdp(&self, cmd: &'static str, params: Value) -> Result<(), String> {
        self.client
            .issue_cmd(Cdp { cmd, params })
            .await
            .map(drop)
            .map_err(|e| format!("{cmd}: {e}"))
    }

    /// Presses `keys` with nothing focused (the page's own keys), as a user does.
    async fn press(&self, keys: &str) -> Result<(), String> {
        self.js("document.activeElement?.blur(); return null;")
            .await?;
        self.client
            .find(Locator::Css("body"))
            .await
            .map_err(|e| format!("no body: {e}"))?
            .send_keys(keys)
            .await
            .map_err(|e| format!("pressing {keys:?}: {e}"))
    }

    /// The text in the record box.
    async fn record_box(&self) -> Result<String, String> {
        let value = self
            .client
            .execute(
                r#"return document.getElementById("record").value;"#,
                Vec::new(),
            )
            .await
            .map_err(|e| format!("reading the record box: {e}"))?;
        Ok(value.as_str().unwrap_or_default().to_string())
    }

    /// Waits until `ready` holds of what the page shows, and returns it.
    async fn wait_for(&self, what: &str, ready: impl Fn(&Seen) -> bool) -> Result<Seen, String> {
        let since = Instant::now();
        loop {
            let seen = self.seen().await?;
            if ready(&seen) {
                return Ok(seen);
            }
            if since.elapsed() > PATIENCE {
                return Err(format!(
                    "waited in vain for {what}; the page shows {seen:?}"
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until game `id` is settled, the human's turn or over with no search running, and
    /// the page shows it as the server has it (position, move list); the server's game.
    async fn settled(&self, id: &str, human: &str) -> Result<Value, String> {
        let since = Instant::now();
        loop {
            let game = self.game(id)?;
            let seen = self.seen().await?;
            if seen.error {
                return Err(format!("the page shows an error: {}", seen.status));
            }
            let ready = game["searching"].is_null()
                && (!game["outcome"].is_null() || human == "humans" || game["to_move"] == human);
            let same = seen.game.as_deref() == Some(id)
                && seen.position == game["position"].as_str().unwrap_or_default()
                && seen.moves == strings(&game["moves"]);
            if ready && same {
                return Ok(game);
            }
            if since.elapsed() > PATIENCE {
                return Err(format!(
                    "the page did not settle (the server's game is {}ready): the server has \
                     position {} and moves {}; the page shows {seen:?}",
                    if ready { "" } else { "not " },
                    game["position"],
                    game["moves"],
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// The strings of a JSON array.
fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| item.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Loads the page, sets the mode and a short engine time, runs and stops an analysis, and
/// plays a whole game by clicking; checks the banner and the console; saves a screenshot.
async fn play_in_page(client: Client, setup: Setup) -> Result<Report, String> {
    let (page, id) = Page::open(client, &setup).await?;
    page.type_into("time", &ENGINE_MS.to_string()).await?;
    page.choose_mode(setup.mode).await?;
    let human = setup.mode;
    let mut rng = SplitMix64::new(setup.seed);
    let mut human_plies = 0;
    let mut analysis_rows = None;
    let game = loop {
        let game = page.settled(&id, human).await?;
        if !game["outcome"].is_null() {
            break game;
        }
        let played = game["moves"].as_array().map_or(0, Vec::len);
        if played >= setup.max_plies {
            return Err(format!(
                "not over after {played} plies: {}",
                game["position"]
            ));
        }
        if analysis_rows.is_none() {
            analysis_rows = Some(analyse(&page, &id).await?);
            continue;
        }
        let legal = game["legal"]
            .as_array()
            .filter(|legal| !legal.is_empty())
            .ok_or_else(|| format!("no legal move in a game not over: {game}"))?;
        let choice = &legal[rng.below(legal.len())];
        let text = choice["move"].as_str().unwrap_or_default();
        let clicks = strings(&choice["clicks"]);
        for click in &clicks {
            page.click_id(click).await?;
        }
        // The move the clicks made reached the server, and it is the one chosen.
        let since = Instant::now();
        loop {
            let now = page.game(&id)?;
            let moves = strings(&now["moves"]);
            if moves.len() > played {
                if moves[played] != text {
                    return Err(format!(
                        "clicking {clicks:?} for {text} played {}",
                        moves[played]
                    ));
                }
                break;
            }
            if since.elapsed() > PATIENCE {
                let seen = page.seen().await?;
                return Err(format!(
                    "clicking {clicks:?} did not play {text}; the page shows {seen:?}"
                ));
            }
            tokio::time::sleep(POLL).await;
        }
        human_plies += 1;
    };
    let outcome = game["outcome"].as_str().unwrap_or_default().to_string();
    let seen = page.seen().await?;
    let banner = format!("Game over: {outcome}");
    if seen.banner.as_deref() != Some(banner.as_str()) || seen.status != outcome {
        return Err(format!(
            "the game is over ({outcome}) but the page shows {seen:?}"
        ));
    }
    page.no_console_errors().await?;
    screenshot(&page, setup.name).await?;
    Ok(Report {
        plies: game["moves"].as_array().map_or(0, Vec::len),
        human_plies,
        analysis_rows: analysis_rows.unwrap_or(0),
        outcome,
    })
}

/// Makes a move, clicks "New game" while the engine thinks about its reply (for seconds), and
/// watches the page go on with the new game.
async fn new_game_while_thinking(client: Client, setup: Setup) -> Result<(), String> {
    let (page, old) = Page::open(client, &setup).await?;
    page.type_into("time", "5000").await?;
    let game = page.settled(&old, setup.mode).await?;
    for click in strings(&game["legal"][0]["clicks"]) {
        page.click_id(&click).await?;
    }
    let since = Instant::now();
    while page.game(&old)?["searching"] != "engine" {
        if since.elapsed() > PATIENCE {
            return Err("the engine did not start thinking".into());
        }
        tokio::time::sleep(POLL).await;
    }
    page.click("#new").await?;
    let seen = page
        .wait_for("a new game", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != old)
        })
        .await?;
    let new = seen.game.expect("waited for");
    let since = Instant::now();
    while since.elapsed() < Duration::from_millis(1500) {
        let seen = page.seen().await?;
        if seen.game.as_ref() != Some(&new) || seen.error || !seen.moves.is_empty() {
            return Err(format!(
                "after New game while the engine thought, the page shows {seen:?} (the new \
                 game is {new}, the old one {old})"
            ));
        }
        tokio::time::sleep(POLL).await;
    }
    page.settled(&new, setup.mode).await?;
    Ok(())
}

/// Sets up a position with a win in one, analyses it, and plays the winning move.
async fn analysis_ending_at_once(client: Client, setup: Setup) -> Result<(), String> {
    // Red's master faces blue's one step ahead and red holds the crane (one step forward).
    const WIN_IN_ONE: &str = "b4/5/2B2/2R2/4r r monkey,crane tiger,crab dragon";
    let (page, old) = Page::open(client, &setup).await?;
    page.choose_mode(setup.mode).await?;
    page.type_into("record", WIN_IN_ONE).await?;
    page.click("#load").await?;
    let seen = page
        .wait_for("the position set up", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != old)
        })
        .await?;
    let id = seen.game.expect("waited for");
    // Again and again: the analysis's events and the answer that starts it may come in
    // either order.
    let mut best = String::new();
    for round in 0..10 {
        page.click("#analyze").await?;
        page.wait_for("the analysis to end", |seen| {
            seen.analysis.starts_with("done") && seen.lines > 0
        })
        .await
        .map_err(|e| format!("analysis {round}: {e}"))?;
        let shown = page
            .js(
                r##"return [document.querySelector("#lines .pv-score").textContent,
                document.querySelector("#lines .pv-move").textContent];"##,
            )
            .await?;
        // Red (to move) wins with its next move: one ply, said from red's side.
        if shown[0] != "Red wins in 1" {
            return Err(format!("the win in one is shown as {shown}"));
        }
        best = shown[1].as_str().unwrap_or_default().to_string();
        page.click("#analyze").await?;
        page.wait_for("the analysis off", |seen| seen.lines == 0)
            .await?;
    }
    let game = page.settled(&id, "first").await?;
    let legal = game["legal"].as_array().cloned().unwrap_or_default();
    let win = legal
        .iter()
        .find(|m| m["move"] == best.as_str())
        .ok_or_else(|| format!("the best move {best} is not in {legal:?}"))?;
    for click in strings(&win["clicks"]) {
        page.click_id(&click).await?;
    }
    page.wait_for("red's win", |seen| {
        seen.banner.as_deref() == Some("Game over: red won")
    })
    .await?;
    Ok(())
}

/// Sets up moves from the record box, shows the record and sets it up again.
async fn records_in_page(client: Client, setup: Setup) -> Result<(), String> {
    let (page, old) = Page::open(client, &setup).await?;
    page.choose_mode(setup.mode).await?;
    page.type_into("record", "14 9 18").await?;
    page.click("#load").await?;
    let seen = page
        .wait_for("the moves set up", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != old)
        })
        .await?;
    let first = seen.game.expect("waited for");
    let game = page.settled(&first, "second").await?;
    if strings(&game["moves"]) != ["14", "9", "18"] {
        return Err(format!("set up {}, not 14 9 18", game["moves"]));
    }
    page.click("#save").await?;
    let record = get_json(&setup.url, &format!("/api/games/{first}/record"))?;
    let text = record["text"].as_str().unwrap_or_default().to_string();
    if !text.contains("PIT 0 14\nPIT 1 9\nPIT 0 18\n") {
        return Err(format!("the server's record is not a log: {text:?}"));
    }
    let since = Instant::now();
    while page.record_box().await? != text {
        if since.elapsed() > PATIENCE {
            return Err(format!(
                "Show record: the box holds {:?}, the server's record is {text:?}",
                page.record_box().await?
            ));
        }
        tokio::time::sleep(POLL).await;
    }
    page.click("#new").await?;
    let seen = page
        .wait_for("a new game", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != first) && seen.moves.is_empty()
        })
        .await?;
    let fresh = seen.game.expect("waited for");
    page.type_into("record", &text).await?;
    page.click("#load").await?;
    let seen = page
        .wait_for("the record set up", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != fresh)
        })
        .await?;
    let loaded = page
        .settled(&seen.game.expect("waited for"), "second")
        .await?;
    if loaded["moves"] != game["moves"] || loaded["position"] != game["position"] {
        return Err(format!(
            "the record set up again is {} at {}, not {} at {}",
            loaded["moves"], loaded["position"], game["moves"], game["position"]
        ));
    }
    page.no_console_errors().await
}

/// Turns the analysis on (`#analysis-time`, the toggle), waits for its first streamed
/// iteration in the table, turns it off and waits until the server's search is over; the rows
/// seen.
async fn analyse(page: &Page, id: &str) -> Result<usize, String> {
    page.type_into("analysis-time", &ANALYSIS_MS.to_string())
        .await?;
    page.click("#analyze").await?;
    let seen = page
        .wait_for("an analysis row", |seen| seen.rows > 0 && seen.lines > 0)
        .await?;
    page.click("#analyze").await?;
    page.wait_for("the analysis off", |seen| seen.analysis.is_empty())
        .await?;
    let since = Instant::now();
    while !page.game(id)?["searching"].is_null() {
        if since.elapsed() > PATIENCE {
            return Err("the analysis still runs after it was turned off".into());
        }
        tokio::time::sleep(POLL).await;
    }
    Ok(seen.rows)
}

/// Saves a screenshot of the page as `<target>/browser-screenshots/<name>.png`, and as
/// `docs/images/<name>.png` when `PLIES_UPDATE_SCREENSHOTS=1`.
async fn screenshot(page: &Page, name: &str) -> Result<(), String> {
    // The whole page (the panels below the board included) in one picture: a window as tall
    // as the page (the board's height follows the window's, so twice).
    for _ in 0..2 {
        let height = page
            .client
            .execute(
                "return document.documentElement.scrollHeight \
                     + window.outerHeight - window.innerHeight;",
                Vec::new(),
            )
            .await
            .map_err(|e| format!("the page's height: {e}"))?
            .as_u64()
            .map_or(1000, |h| h.clamp(600, 2400));
        page.client
            .set_window_size(1300, u32::try_from(height).unwrap_or(1000))
            .await
            .map_err(|e| format!("resizing the window: {e}"))?;
    }
    let png = page
        .client
        .screenshot()
        .await
        .map_err(|e| format!("screenshot: {e}"))?;
    save_png(name, &png)
}

/// The layout test's screenshots the README shows (besides each game's finished game).
const README_SHOTS: [&str; 4] = [
    "onitama-desktop-light",
    "onitama-desktop-dark",
    "yinsh-phone-light",
    "tafl-phone-dark",
];

/// Saves the picture `png` as `<target>/browser-screenshots/<name>.png`, and as
/// `docs/images/<name>.png` when `PLIES_UPDATE_SCREENSHOTS=1` and the README shows it.
fn save_png(name: &str, png: &[u8]) -> Result<(), String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("browser-screenshots");
    let mut folders = vec![target];
    let in_readme = !name.contains('-') || README_SHOTS.contains(&name);
    if in_readme && std::env::var("PLIES_UPDATE_SCREENSHOTS").is_ok_and(|v| v == "1") {
        folders.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images"));
    }
    for folder in folders {
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let file = folder.join(format!("{name}.png"));
        std::fs::write(&file, png).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(())
}

/// Plays `plies` moves of game `id` by clicking (the seeded random choice of `rng` among the
/// legal moves), two humans at the board; the server's game after them.
async fn play_by_clicking(
    page: &Page,
    id: &str,
    plies: usize,
    rng: &mut SplitMix64,
) -> Result<Value, String> {
    for _ in 0..plies {
        let game = page.settled(id, "humans").await?;
        let played = game["moves"].as_array().map_or(0, Vec::len);
        let legal = game["legal"]
            .as_array()
            .filter(|legal| !legal.is_empty())
            .ok_or_else(|| format!("no legal move after {played} plies: {game}"))?;
        let choice = &legal[rng.below(legal.len())];
        for click in strings(&choice["clicks"]) {
            page.click_id(&click).await?;
        }
        let since = Instant::now();
        while page.game(id)?["moves"].as_array().map_or(0, Vec::len) <= played {
            if since.elapsed() > PATIENCE {
                return Err(format!("clicking {} played nothing", choice["move"]));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    page.settled(id, "humans").await
}

/// The pairs of the query of `url`.
fn query(url: &str) -> Result<Vec<(String, String)>, String> {
    let url = url::Url::parse(url).map_err(|e| format!("the page's address {url:?}: {e}"))?;
    Ok(url.query_pairs().into_owned().collect())
}

/// The value of `key` in `pairs`.
fn param<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Waits until the page shows a game other than `not`, at move `ply` of `moves`, with
/// `position`; its id.
async fn wait_for_game(
    page: &Page,
    what: &str,
    not: Option<&str>,
    position: &str,
    moves: &[String],
    ply: usize,
) -> Result<String, String> {
    let seen = page
        .wait_for(what, |seen| {
            seen.game.is_some()
                && seen.game.as_deref() != not
                && seen.ply == Some(ply)
                && seen.moves == moves
                && seen.position == position
        })
        .await?;
    Ok(seen.game.expect("waited for"))
}

/// Plays four moves, shows the second, starts a long analysis, checks the address, reloads,
/// and opens the address in a second browser session on a restarted server.
async fn address_kept(client: Client, setup: Setup) -> Result<(), String> {
    let (page, first) = Page::open(client, &setup).await?;
    page.choose_mode("humans").await?;
    let mut rng = SplitMix64::new(setup.seed);
    let game = play_by_clicking(&page, &first, 4, &mut rng).await?;
    let moves = strings(&game["moves"]);
    page.click("#moves .move.on-line[data-ply=\"2\"]").await?;
    page.wait_for("the second move shown", |seen| seen.ply == Some(2))
        .await?;
    let shown = page.game(&first)?;
    let position = shown["position"].as_str().unwrap_or_default().to_string();
    let start = shown["start"].as_str().unwrap_or_default().to_string();
    // The address names the game: its start, its moves, the move shown, the mode.
    let seen = page.seen().await?;
    let pairs = query(&seen.url)?;
    let wanted = [
        ("position", start.as_str()),
        ("moves", &moves.join(" ")),
        ("ply", "2"),
        ("mode", "humans"),
    ];
    for (key, value) in wanted {
        if param(&pairs, key) != Some(value) {
            return Err(format!(
                "the address {} has {key} {:?}, not {value:?}",
                seen.url,
                param(&pairs, key)
            ));
        }
    }
    // A search runs on the game when the page is reloaded.
    page.type_into("analysis-time", "60000").await?;
    page.click("#analyze").await?;
    let since = Instant::now();
    while page.game(&first)?["searching"] != "analysis" {
        if since.elapsed() > PATIENCE {
            return Err("the analysis did not start".into());
        }
        tokio::time::sleep(POLL).await;
    }
    page.client
        .refresh()
        .await
        .map_err(|e| format!("reloading: {e}"))?;
    let second = wait_for_game(
        &page,
        "the game after the reload",
        Some(&first),
        &position,
        &moves,
        2,
    )
    .await?;
    let reloaded = page.game(&second)?;
    if reloaded["start"] != start.as_str() || !reloaded["searching"].is_null() {
        return Err(format!("after the reload the server has {reloaded}"));
    }
    // The old game is let go, its analysis with it.
    let since = Instant::now();
    loop {
        match page.game(&first) {
            Err(e) if e.contains("404") => break,
            Err(e) => return Err(e),
            Ok(old) if since.elapsed() > PATIENCE => {
                return Err(format!(
                    "the game before the reload is still there (searching {})",
                    old["searching"]
                ));
            }
            Ok(_) => tokio::time::sleep(POLL).await,
        }
    }
    page.no_console_errors().await?;
    // The address, copied into another browser (no shared storage) on a restarted server.
    let url = page.seen().await?.url;
    let base = (setup.restart)();
    let copied = format!(
        "{}/?{}",
        base.trim_end_matches('/'),
        url.split_once('?').map_or("", |(_, q)| q)
    );
    let browser = setup.browser.as_ref().ok_or("no browser to open")?;
    let other = session(browser, "second-profile").await?;
    let answer = async {
        let page = Page {
            client: other.clone(),
            base: base.clone(),
        };
        page.client
            .goto(&copied)
            .await
            .map_err(|e| format!("loading {copied}: {e}"))?;
        wait_for_game(
            &page,
            "the copied address's game",
            None,
            &position,
            &moves,
            2,
        )
        .await?;
        page.no_console_errors().await
    }
    .await;
    let closed = other.close().await;
    answer?;
    closed.map_err(|e| format!("closing the second session: {e}"))
}

/// The centre of the board and of each of its cells, in CSS pixels.
const CENTRES: &str = r#"
    const middle = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    const board = document.getElementById("board");
    return {
        board: middle(board.getBoundingClientRect()),
        cells: Array.from(board.querySelectorAll("[data-id]"),
            (node) => [node.dataset.id, ...middle(node.getBoundingClientRect())]),
    };
"#;

/// The board's centre and its cells' centres.
async fn centres(page: &Page) -> Result<((f64, f64), Vec<(String, f64, f64)>), String> {
    let value = page.js(CENTRES).await?;
    let number = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let board = (number(&value["board"][0]), number(&value["board"][1]));
    let cells: Vec<(String, f64, f64)> = value["cells"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|cell| {
            (
                cell[0].as_str().unwrap_or_default().to_string(),
                number(&cell[1]),
                number(&cell[2]),
            )
        })
        .collect();
    if cells.is_empty() {
        return Err("the board has no cells".into());
    }
    Ok((board, cells))
}

/// Presses `keys` and waits until the page and the server show move `ply`.
async fn step_to(page: &Page, id: &str, keys: &str, ply: usize) -> Result<(), String> {
    page.press(keys).await?;
    page.wait_for(&format!("move {ply} shown after {keys:?}"), |seen| {
        seen.ply == Some(ply)
    })
    .await?;
    let game = page.game(id)?;
    if game["ply"] != ply {
        return Err(format!(
            "after {keys:?} the page shows move {ply}, the server {}",
            game["ply"]
        ));
    }
    Ok(())
}

/// Playing the second side flips the board; arrow keys, Home and End step through the moves;
/// `f` and the Flip button turn the board round.
async fn keys_and_flip(client: Client, setup: Setup) -> Result<(), String> {
    use fantoccini::key::Key;
    let (page, id) = Page::open(client, &setup).await?;
    if page.seen().await?.flipped {
        return Err("the board is turned round for the first side".into());
    }
    page.type_into("time", &ENGINE_MS.to_string()).await?;
    page.choose_mode("second").await?;
    page.wait_for("the board turned round for the second side", |seen| {
        seen.flipped
    })
    .await?;
    page.settled(&id, "second").await?;
    page.choose_mode("humans").await?;
    page.wait_for("the board the right way up", |seen| !seen.flipped)
        .await?;
    let mut rng = SplitMix64::new(setup.seed);
    let game = play_by_clicking(&page, &id, 3, &mut rng).await?;
    let n = game["moves"].as_array().map_or(0, Vec::len);
    let left = Key::Left.to_string();
    let right = Key::Right.to_string();
    step_to(&page, &id, &left, n - 1).await?;
    step_to(&page, &id, &left, n - 2).await?;
    step_to(&page, &id, &right, n - 1).await?;
    step_to(&page, &id, &Key::Home.to_string(), 0).await?;
    step_to(&page, &id, &Key::End.to_string(), n).await?;
    // Keys typed into a box are the box's.
    let input = page
        .client
        .find(Locator::Css("#time"))
        .await
        .map_err(|e| format!("no #time: {e}"))?;
    input
        .send_keys(&format!("{left}{left}f"))
        .await
        .map_err(|e| format!("typing into #time: {e}"))?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seen = page.seen().await?;
    if seen.ply != Some(n) || seen.flipped {
        return Err(format!(
            "keys typed into a box moved the page: it shows {seen:?}"
        ));
    }
    // `f`: every cell goes to the opposite point of the board.
    let (middle, before) = centres(&page).await?;
    page.press("f").await?;
    page.wait_for("the board turned round by f", |seen| seen.flipped)
        .await?;
    let (_, after) = centres(&page).await?;
    let mut moved = false;
    for ((id, x, y), (other, x2, y2)) in before.iter().zip(&after) {
        let (ex, ey) = (2.0 * middle.0 - x, 2.0 * middle.1 - y);
        if id != other || (x2 - ex).abs() > 1.5 || (y2 - ey).abs() > 1.5 {
            return Err(format!(
                "turned round, cell {id} at ({x:.0}, {y:.0}) went to {other} at ({x2:.0}, \
                 {y2:.0}), not ({ex:.0}, {ey:.0})"
            ));
        }
        moved |= (x2 - x).abs() > 5.0 || (y2 - y).abs() > 5.0;
    }
    if !moved {
        return Err("turning the board round moved no cell".into());
    }
    page.click("#flip").await?;
    page.wait_for("the board turned back by Flip", |seen| !seen.flipped)
        .await?;
    let (_, back) = centres(&page).await?;
    for ((id, x, y), (_, x2, y2)) in before.iter().zip(&back) {
        if (x2 - x).abs() > 1.5 || (y2 - y).abs() > 1.5 {
            return Err(format!("turned back, cell {id} is not where it was"));
        }
    }
    cards_face_their_holders(&page, "turned back").await?;
    page.press("f").await?;
    page.wait_for("the board turned round by f", |seen| seen.flipped)
        .await?;
    cards_face_their_holders(&page, "turned round").await?;
    copy_position(&page).await?;
    page.no_console_errors().await
}

/// Move grids (Onitama's cards) are drawn from their holder's side: turned round above the
/// board, upright below it.
async fn cards_face_their_holders(page: &Page, when: &str) -> Result<(), String> {
    let seen = page
        .js(r##"
            const turned = (selector) => Array.from(document.querySelectorAll(selector),
                (svg) => svg.classList.contains("turned"));
            return {
                top: turned("#panels-top .item svg"),
                bottom: turned("#panels .panel.side-first .item svg, #panels .panel.side-second .item svg"),
            };
        "##)
        .await?;
    let all = |key: &str, turned: bool| {
        seen[key]
            .as_array()
            .is_some_and(|grids| grids.iter().all(|g| g.as_bool() == Some(turned)))
    };
    if !all("top", true) || !all("bottom", false) {
        return Err(format!(
            "board {when}: grids above the board turned {}, below {}",
            seen["top"], seen["bottom"]
        ));
    }
    Ok(())
}

/// The node after `plies` moves of the main line of `game`'s tree.
fn main_line_node(game: &Value, plies: usize) -> Option<u64> {
    let tree = game["tree"].as_array()?;
    let mut node = tree.first()?;
    for _ in 0..plies {
        let child = node["children"][0].as_u64()?;
        node = tree.iter().find(|n| n["node"] == child)?;
    }
    node["node"].as_u64()
}

/// The children of `node` in `game`'s tree.
fn children(game: &Value, node: u64) -> Vec<u64> {
    game["tree"]
        .as_array()
        .and_then(|tree| tree.iter().find(|n| n["node"] == node))
        .and_then(|n| n["children"].as_array())
        .map(|ids| ids.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// The move texts of the main line of `game`'s tree.
fn main_line(game: &Value) -> Vec<String> {
    let tree = game["tree"].as_array().cloned().unwrap_or_default();
    let mut moves = Vec::new();
    let mut node = tree.first().cloned();
    while let Some(child) = node.as_ref().and_then(|n| n["children"][0].as_u64()) {
        node = tree.iter().find(|n| n["node"] == child).cloned();
        if let Some(n) = &node {
            moves.push(n["move"].as_str().unwrap_or_default().to_string());
        }
    }
    moves
}

/// Plays four moves, goes back to the second and plays another third move: a variation.
/// Steps along it by the keys, clicks back onto the main line, promotes the variation, and
/// reloads.
async fn variations(client: Client, setup: Setup) -> Result<(), String> {
    use fantoccini::key::Key;
    let (page, id) = Page::open(client, &setup).await?;
    page.choose_mode("humans").await?;
    let mut rng = SplitMix64::new(setup.seed);
    let game = play_by_clicking(&page, &id, 4, &mut rng).await?;
    let main = strings(&game["moves"]);
    page.click("#moves .move.on-line[data-ply=\"2\"]").await?;
    page.wait_for("move 2 shown", |seen| seen.ply == Some(2))
        .await?;
    let at_two = page.settled(&id, "humans").await?;
    let other = at_two["legal"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["move"] != main[2].as_str())
        .ok_or_else(|| format!("one legal move only after {:?}", &main[..2]))?
        .clone();
    let other_text = other["move"].as_str().unwrap_or_default().to_string();
    for click in strings(&other["clicks"]) {
        page.click_id(&click).await?;
    }
    let wanted = [main[0].clone(), main[1].clone(), other_text.clone()];
    let seen = page
        .wait_for("the variation's move shown", |seen| {
            seen.ply == Some(3) && seen.moves == wanted
        })
        .await?;
    let game = page.game(&id)?;
    let two = main_line_node(&game, 2).ok_or("no node after two moves")?;
    let below = children(&game, two);
    let variation = seen.node.ok_or("no node shown")?;
    if below.len() != 2 || below[1] != variation || main_line(&game) != main {
        return Err(format!(
            "after another third move the tree is {}, the main line {:?}",
            game["tree"],
            main_line(&game)
        ));
    }
    let text = format!(
        "{} {} {} ({}) {}",
        main[0], main[1], main[2], other_text, main[3]
    );
    if game["tree_text"] != text.as_str() {
        return Err(format!(
            "the tree's text is {}, not {text:?}",
            game["tree_text"]
        ));
    }
    let listed = page
        .js(r##"return Array.from(document.querySelectorAll("#moves .variation .move"), (m) => m.dataset.move);"##)
        .await?;
    if strings(&listed) != [other_text.clone()] {
        return Err(format!("the move list's variations show {listed}"));
    }
    marks_and_movers(&page, &game).await?;
    // The keys follow the variation: back to move 2 and forward onto the variation again.
    step_to(&page, &id, &Key::Left.to_string(), 2).await?;
    step_to(&page, &id, &Key::Right.to_string(), 3).await?;
    if page.seen().await?.node != Some(variation) {
        return Err("forward from move 2 left the variation".into());
    }
    // A click on the main line's fourth move shows it, the main line shown again.
    let four = main_line_node(&game, 4).ok_or("no node after four moves")?;
    page.click(&format!("#moves .move[data-node=\"{four}\"]"))
        .await?;
    page.wait_for("the main line's fourth move", |seen| {
        seen.node == Some(four) && seen.moves == main
    })
    .await?;
    // The variation promoted: the main line now.
    page.click(&format!("#moves .move[data-node=\"{variation}\"]"))
        .await?;
    page.wait_for("the variation shown", |seen| seen.node == Some(variation))
        .await?;
    page.click("#promote").await?;
    let since = Instant::now();
    let promoted = loop {
        let game = page.game(&id)?;
        if main_line(&game) == wanted {
            break game;
        }
        if since.elapsed() > PATIENCE {
            return Err(format!("after Make main line the tree is {}", game["tree"]));
        }
        tokio::time::sleep(POLL).await;
    };
    // The page shows it so once the answer is in.
    let since = Instant::now();
    loop {
        let listed = page
            .js(r##"return Array.from(document.querySelectorAll("#moves .mainline > .move"), (m) => m.dataset.move);"##)
            .await?;
        let shown = page.seen().await?;
        if strings(&listed) == wanted && shown.moves == wanted {
            break;
        }
        if since.elapsed() > PATIENCE {
            return Err(format!(
                "after Make main line the move list's main line is {listed}, the line shown {:?}",
                shown.moves
            ));
        }
        tokio::time::sleep(POLL).await;
    }
    // A reload: the same tree, line and move.
    let position = promoted["position"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    page.client
        .refresh()
        .await
        .map_err(|e| format!("reloading: {e}"))?;
    let again = wait_for_game(
        &page,
        "the game after the reload",
        Some(&id),
        &position,
        &wanted,
        3,
    )
    .await?;
    let reloaded = page.game(&again)?;
    if reloaded["tree_text"] != promoted["tree_text"] {
        return Err(format!(
            "after the reload the tree is {}, not {}",
            reloaded["tree_text"], promoted["tree_text"]
        ));
    }
    page.no_console_errors().await
}

/// Plays four moves, turns the analysis on with two lines, steps back, and plays a line's
/// move from the page.
async fn analysis_follows(client: Client, setup: Setup) -> Result<(), String> {
    use fantoccini::key::Key;
    let (page, id) = Page::open(client, &setup).await?;
    page.choose_mode("humans").await?;
    let mut rng = SplitMix64::new(setup.seed);
    play_by_clicking(&page, &id, 4, &mut rng).await?;
    page.type_into("analysis-time", "60000").await?;
    page.js(r##"
        const lines = document.getElementById("lines-count");
        lines.value = "2";
        lines.dispatchEvent(new Event("change"));
        return null;
    "##)
        .await?;
    page.click("#analyze").await?;
    let expected = |game: &Value| game["legal"].as_array().map_or(0, Vec::len).min(2);
    for step in 0..3 {
        let game = page.game(&id)?;
        let want = expected(&game);
        let node = game["node"].as_u64();
        let seen = page
            .wait_for(
                &format!("{want} lines of the position shown (step {step})"),
                |seen| seen.node == node && seen.lines == want,
            )
            .await?;
        // The server searches the node shown, or its search of it is over (a proven result)
        // and the page says so.
        let since = Instant::now();
        loop {
            let game = page.game(&id)?;
            let now = page.seen().await?;
            let searching =
                game["searching"] == "analysis" && game["search"]["node"].as_u64() == seen.node;
            let over = game["searching"].is_null() && now.analysis.starts_with("done");
            if searching || over {
                break;
            }
            if since.elapsed() > PATIENCE {
                return Err(format!(
                    "the page shows node {:?} ({}; {}), the server searches {} ({})",
                    now.node, now.analysis, now.status, game["search"], game["searching"]
                ));
            }
            tokio::time::sleep(POLL).await;
        }
        let marks = page
            .js(r##"return {
                bar: !document.getElementById("evalbar").hidden,
                best: document.querySelectorAll("#board .best, .item.best").length,
            };"##)
            .await?;
        if marks["bar"] != true || marks["best"].as_u64().unwrap_or(0) == 0 {
            return Err(format!(
                "analysing, the page shows {marks} of the bar and best move"
            ));
        }
        if step < 2 {
            step_to(&page, &id, &Key::Left.to_string(), 3 - step).await?;
        }
    }
    // A line's first move clicked: played on the board, and analysed in turn.
    let before = page.game(&id)?;
    // Read and clicked in one go: the lines are drawn again as the analysis deepens.
    let first = page
        .js(r##"
            const move = document.querySelector("#lines .pv-move");
            move.click();
            return move.textContent;
        "##)
        .await?;
    let ply = before["ply"].as_u64().unwrap_or(0) as usize + 1;
    let seen = page
        .wait_for("the line's move played", |seen| seen.ply == Some(ply))
        .await?;
    if seen.moves.get(ply - 1).map(String::as_str) != first.as_str() {
        return Err(format!(
            "clicking the line's move {first} played {:?}",
            seen.moves
        ));
    }
    // The board stays live while the analysis runs: a move clicked is played.
    let game = page.game(&id)?;
    if game["outcome"].is_null() {
        let played = game["ply"].as_u64().unwrap_or(0) as usize;
        let choice = &game["legal"][0];
        for click in strings(&choice["clicks"]) {
            page.click_id(&click).await?;
        }
        let text = choice["move"].as_str().unwrap_or_default().to_string();
        page.wait_for("the move clicked while analysing", |seen| {
            seen.ply == Some(played + 1) && seen.moves.get(played) == Some(&text)
        })
        .await?;
    }
    // The score graph: a click at its left end shows the start.
    page.js(r##"
        const graph = document.getElementById("graph");
        const box = graph.getBoundingClientRect();
        const x = box.left + box.width * (34 / 320) + 1;
        const y = box.top + box.height / 2;
        graph.dispatchEvent(new MouseEvent("click", { clientX: x, clientY: y, bubbles: true }));
        return null;
    "##)
        .await?;
    page.wait_for("the start shown by a click on the graph", |seen| {
        seen.ply == Some(0)
    })
    .await?;
    page.click("#analyze").await?;
    page.wait_for("the analysis off", |seen| seen.lines == 0)
        .await?;
    page.no_console_errors().await
}

/// "Copy position" shows the position's text in a read-only box, selected.
async fn copy_position(page: &Page) -> Result<(), String> {
    page.click("#copy").await?;
    let position = page.seen().await?.position;
    let shown = page
        .js(r##"
            const box = document.getElementById("position-text");
            return {
                hidden: box.hidden,
                readonly: box.readOnly,
                value: box.value,
                selected: box.value.slice(box.selectionStart, box.selectionEnd),
            };
        "##)
        .await?;
    if shown["hidden"] != false
        || shown["readonly"] != true
        || shown["value"] != position.as_str()
        || shown["selected"] != position.as_str()
    {
        return Err(format!(
            "Copy position shows {shown}, the position is {position:?}"
        ));
    }
    Ok(())
}

/// What the layout check reads: the page's width, the window's, the padding of the analysis
/// table's cells, how the position text wraps, the body's background, the lowest panel item's
/// bottom edge (scrolled to the top), the controls smaller than a finger, the colours of a
/// piece of each side.
const LAYOUT: &str = r##"
    window.scrollTo(0, 0);
    const th = document.querySelector("#analysis th");
    const style = getComputedStyle(th);
    const shown = (node) => node.offsetParent !== null;
    const items = Array.from(document.querySelectorAll(".panel .item")).filter(shown);
    const small = Array.from(document.querySelectorAll(
        "button, select, input:not([type=file]), #moves .move")).filter(shown)
        .filter((node) => node.getBoundingClientRect().height < 31.5)
        .map((node) => node.id || node.className || node.tagName);
    const fill = (side) => {
        const piece = document.querySelector(`#board .piece.side-${side}:not(.kind-ring)`)
            ?? document.querySelector(`#board .piece.side-${side}`);
        if (!piece) return null;
        const style = getComputedStyle(piece);
        return piece.classList.contains("kind-ring") ? style.stroke : style.fill;
    };
    return {
        items: Math.max(0, ...items.map((node) => node.getBoundingClientRect().bottom)),
        small,
        first: fill("first"),
        second: fill("second"),
        motion: getComputedStyle(document.querySelector(".evalbar .fill")).transitionDuration,
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        padding: parseFloat(style.paddingLeft) + parseFloat(style.paddingRight),
        wrap: getComputedStyle(document.getElementById("position")).overflowWrap,
        lines: document.getElementById("position").getBoundingClientRect().height
            / parseFloat(getComputedStyle(document.getElementById("position")).lineHeight),
        background: getComputedStyle(document.body).backgroundColor,
    };
"##;

/// The relative luminance (0 black .. 1 white) of a CSS `rgb(r, g, b)` colour.
fn luminance(colour: &str) -> Option<f64> {
    let inner = colour
        .strip_prefix("rgb(")
        .or_else(|| colour.strip_prefix("rgba("))?
        .trim_end_matches(')');
    let parts: Vec<f64> = inner
        .split(',')
        .take(3)
        .map(|part| part.trim().parse::<f64>().ok())
        .collect::<Option<_>>()?;
    match parts[..] {
        [r, g, b] => Some((0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0),
        _ => None,
    }
}

/// Plays four moves and runs an analysis (its lines shown), then looks at the page 390 and
/// 1280 px wide, light and dark: no horizontal overflow, the table's columns apart, the
/// position text wrapping anywhere, the background light or dark; a screenshot of each.
async fn layout(client: Client, setup: Setup) -> Result<(), String> {
    let (page, id) = Page::open(client, &setup).await?;
    let info = get_json(&setup.url, "/api/info")?;
    page.choose_mode("humans").await?;
    let mut rng = SplitMix64::new(setup.seed);
    play_by_clicking(&page, &id, 4, &mut rng).await?;
    // The analysis on, two lines, as the screenshots show it.
    page.type_into("analysis-time", &ANALYSIS_MS.to_string())
        .await?;
    page.js(r##"
        const lines = document.getElementById("lines-count");
        lines.value = "2";
        lines.dispatchEvent(new Event("change"));
        return null;
    "##)
        .await?;
    page.click("#analyze").await?;
    let seen = page
        .wait_for("the analysis's lines", |seen| {
            seen.lines > 0 && seen.analysis.starts_with("done")
        })
        .await?;
    // Both lines asked for stay shown when the analysis is over (its last iteration, cut by
    // the time limit, may report only the first).
    let legal = page.game(&id)?["legal"].as_array().map_or(0, Vec::len);
    if seen.lines != legal.min(2) {
        return Err(format!(
            "the analysis is over with {} lines shown, not {}",
            seen.lines,
            legal.min(2)
        ));
    }
    for scheme in ["light", "dark"] {
        page.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        )
        .await?;
        for (width, height, device) in [
            (360, 740, "small-phone"),
            (390, 844, "phone"),
            (1280, 800, "desktop"),
        ] {
            page.cdp(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            )
            .await?;
            let seen = page.js(LAYOUT).await?;
            let what = format!("{device} ({width} px), {scheme}");
            let scroll = seen["scroll"].as_f64().unwrap_or(f64::NAN);
            let inner = seen["inner"].as_f64().unwrap_or(f64::NAN);
            if inner != f64::from(width) {
                return Err(format!("{what}: the window is {inner} px wide"));
            }
            if scroll > inner {
                return Err(format!(
                    "{what}: the page is {scroll} px wide, wider than the window"
                ));
            }
            if seen["padding"].as_f64().unwrap_or(0.0) < 12.0 {
                return Err(format!(
                    "{what}: the analysis table's columns are {} px apart",
                    seen["padding"]
                ));
            }
            if seen["wrap"] != "anywhere" {
                return Err(format!(
                    "{what}: the position text wraps {}, not anywhere",
                    seen["wrap"]
                ));
            }
            if device == "desktop" && seen["items"].as_f64().unwrap_or(0.0) > inner.min(800.0) {
                return Err(format!(
                    "{what}: the panels' items reach down to {} px, below the fold",
                    seen["items"]
                ));
            }
            if device.ends_with("phone") && seen["small"].as_array().is_some_and(|s| !s.is_empty())
            {
                return Err(format!(
                    "{what}: controls lower than 32 px: {}",
                    seen["small"]
                ));
            }
            // Sides named after colours (Yinsh's white and black) are drawn in them.
            for side in ["first", "second"] {
                let name = info["sides"][side].as_str().unwrap_or_default();
                let drawn = seen[side].as_str().and_then(luminance);
                let wrong = match (name, drawn) {
                    ("white", Some(l)) => l < 0.8,
                    ("black", Some(l)) => l > 0.2,
                    _ => false,
                };
                if wrong {
                    return Err(format!("{what}: {name}'s pieces are drawn {}", seen[side]));
                }
            }
            // A long position text (tafl's rules) takes a few lines at most, scrolled.
            if seen["lines"].as_f64().unwrap_or(f64::NAN) > 4.5 {
                return Err(format!(
                    "{what}: the position text takes {} lines",
                    seen["lines"]
                ));
            }
            let background = seen["background"].as_str().unwrap_or_default();
            let light = luminance(background)
                .ok_or_else(|| format!("{what}: the background is {background:?}"))?;
            let fits = if scheme == "dark" {
                light < 0.2
            } else {
                light > 0.7
            };
            if !fits {
                return Err(format!(
                    "{what}: the background {background} has luminance {light:.2}"
                ));
            }
            let png = page
                .client
                .screenshot()
                .await
                .map_err(|e| format!("screenshot: {e}"))?;
            if device != "small-phone" {
                save_png(&format!("{}-{device}-{scheme}", setup.name), &png)?;
            }
        }
    }
    // Reduced motion: nothing on the page moves by itself.
    for (reduce, wanted) in [("reduce", "0s"), ("no-preference", "0.4s")] {
        page.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-reduced-motion", "value": reduce}]}),
        )
        .await?;
        let motion = page.js(LAYOUT).await?["motion"].clone();
        if motion != wanted {
            return Err(format!(
                "prefers-reduced-motion {reduce}: the evaluation bar's transition is {motion}"
            ));
        }
    }
    page.cdp("Emulation.clearDeviceMetricsOverride", json!({}))
        .await?;
    page.no_console_errors().await
}

/// Picks another variant than the one shown and opens its rules.
async fn variant_picked(client: Client, setup: Setup) -> Result<(), String> {
    let (page, old) = Page::open(client, &setup).await?;
    page.choose_mode(setup.mode).await?;
    let info = get_json(&setup.url, "/api/info")?;
    let variants = info["variants"].as_array().cloned().unwrap_or_default();
    let current = page.game(&old)?["variant"].clone();
    if variants.len() < 2 || !variants.iter().any(|v| v["name"] == current) {
        return Err(format!(
            "the variants are {variants:?}; the game's is {current}"
        ));
    }
    let (index, chosen) = variants
        .iter()
        .enumerate()
        .find(|(_, v)| v["name"] != current)
        .ok_or("one variant only")?;
    page.js(&format!(
        r##"
        const select = document.getElementById("variant");
        select.value = "{index}";
        select.dispatchEvent(new Event("change"));
        return null;
        "##
    ))
    .await?;
    let seen = page
        .wait_for("the variant's game", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != old)
        })
        .await?;
    let game = page.game(&seen.game.expect("waited for"))?;
    if game["variant"] != chosen["name"] || game["start"] != chosen["position"] {
        return Err(format!(
            "picking {} started a game of {} at {}",
            chosen["name"], game["variant"], game["start"]
        ));
    }
    let shown = page
        .js(r##"
            const about = document.getElementById("variant-about");
            const before = about.open;
            document.getElementById("variant-summary").click();
            return {
                hidden: about.hidden,
                before,
                after: about.open,
                summary: document.getElementById("variant-summary").textContent,
                rules: document.getElementById("variant-rules").textContent,
            };
        "##)
        .await?;
    let summary = format!(
        "{}: {}",
        chosen["name"].as_str().unwrap_or_default(),
        chosen["description"].as_str().unwrap_or_default()
    );
    if shown["hidden"] != false
        || shown["before"] != false
        || shown["after"] != true
        || shown["summary"] != summary.as_str()
        || shown["rules"] != chosen["rules"]
    {
        return Err(format!("the variant's description shows {shown}"));
    }
    // tafl colours its own squares (the picture's `cell_colours`): the page fills them so.
    let fills = page
        .js(r##"
            const fill = (kind) => {
                const cell = document.querySelector(`#board .cell.kind-${kind}`);
                return cell ? getComputedStyle(cell).fill : null;
            };
            return { throne: fill("throne"), corner: fill("corner"), light: fill("light") };
        "##)
        .await?;
    let wanted = json!({
        "throne": "rgb(201, 162, 39)",
        "corner": "rgb(141, 110, 99)",
        "light": "rgb(240, 217, 181)",
    });
    if fills != wanted {
        return Err(format!("{} squares are filled {fills}", chosen["name"]));
    }
    page.no_console_errors().await
}

/// Types the start position and two moves on one line into the set-up box.
async fn one_line_set_up(client: Client, setup: Setup) -> Result<(), String> {
    let (page, old) = Page::open(client, &setup).await?;
    page.choose_mode(setup.mode).await?;
    let game = page.game(&old)?;
    let first = game["legal"][0]["move"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let after = page
        .js(&format!(
            r##"
            const response = await fetch("/api/games", {{
                method: "POST",
                headers: {{ "Content-Type": "application/json" }},
                body: JSON.stringify({{ moves: {first:?} }}),
            }});
            return await response.json();
            "##
        ))
        .await?;
    let second = after["legal"][0]["move"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let start = game["start"].as_str().unwrap_or_default();
    page.type_into("record", &format!("{start} {first} {second}"))
        .await?;
    page.click("#load").await?;
    let wanted = [first, second];
    let seen = page
        .wait_for("the position and moves set up", |seen| {
            seen.game.as_ref().is_some_and(|game| *game != old) && seen.moves == wanted
        })
        .await?;
    if seen.error {
        return Err(format!("setting up shows an error: {}", seen.status));
    }
    page.no_console_errors().await
}

/// Makes three moves by dragging, each a legal move whose last two clicks are two cells of
/// the board (the clicks before them clicked): the mouse pressed on the first, moved, and let
/// go over the second, as WebDriver's pointer actions do it.
async fn dragged(client: Client, setup: Setup) -> Result<(), String> {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let (page, id) = Page::open(client, &setup).await?;
    page.choose_mode(setup.mode).await?;
    let mut rng = SplitMix64::new(setup.seed);
    for _ in 0..3 {
        let game = page.settled(&id, "humans").await?;
        let played = game["moves"].as_array().map_or(0, Vec::len);
        let (_, cells) = centres(&page).await?;
        let centre = |id: &str| cells.iter().find(|c| c.0 == id).map(|c| (c.1, c.2));
        let draggable: Vec<&Value> = game["legal"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| {
                let clicks = strings(&m["clicks"]);
                clicks.len() >= 2
                    && clicks[clicks.len() - 2] != clicks[clicks.len() - 1]
                    && clicks[clicks.len() - 2..]
                        .iter()
                        .all(|c| centre(c).is_some())
            })
            .collect();
        if draggable.is_empty() {
            return Err(format!("no move to drag after {played} plies"));
        }
        let chosen = draggable[rng.below(draggable.len())];
        let clicks = strings(&chosen["clicks"]);
        let (from, to) = (&clicks[clicks.len() - 2], &clicks[clicks.len() - 1]);
        for click in &clicks[..clicks.len() - 2] {
            page.click_id(click).await?;
        }
        let (fx, fy) = centre(from).expect("filtered");
        let (tx, ty) = centre(to).expect("filtered");
        let drag = MouseActions::new("mouse".to_string())
            .then(PointerAction::MoveTo {
                duration: None,
                x: fx,
                y: fy,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(150)),
                x: (fx + tx) / 2.0,
                y: (fy + ty) / 2.0,
            })
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(150)),
                x: tx,
                y: ty,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        page.client
            .perform_actions(drag)
            .await
            .map_err(|e| format!("dragging {from} to {to}: {e}"))?;
        page.client
            .release_actions()
            .await
            .map_err(|e| format!("releasing the mouse: {e}"))?;
        let since = Instant::now();
        loop {
            let moves = strings(&page.game(&id)?["moves"]);
            if moves.len() > played {
                if moves[played] != chosen["move"].as_str().unwrap_or_default() {
                    return Err(format!("dragging {from} to {to} played {}", moves[played]));
                }
                break;
            }
            if since.elapsed() > PATIENCE {
                return Err(format!(
                    "dragging {from} to {to} played nothing ({})",
                    chosen["move"]
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
    page.no_console_errors().await
}

/// The page marks what `game` (the server's, as shown) says the last move clicked and
/// changed, and its move list names the side that played each move of the line.
async fn marks_and_movers(page: &Page, game: &Value) -> Result<(), String> {
    let drawn = page
        .js(r##"
            const marked = (name) => Array.from(document.querySelectorAll(
                `#board .${name}[data-id], .item.${name}`), (node) => node.dataset.id);
            return {
                last: marked("last"),
                changed: marked("changed"),
                movers: Array.from(document.querySelectorAll("#moves .move.on-line .who"),
                    (node) => node.textContent),
            };
        "##)
        .await?;
    let last = strings(&drawn["last"]);
    let changed = strings(&drawn["changed"]);
    for id in strings(&game["last"]) {
        if !last.contains(&id) {
            return Err(format!("the last move's {id} is not marked: {drawn}"));
        }
    }
    for id in strings(&game["changed"]) {
        if !changed.contains(&id) && !last.contains(&id) {
            return Err(format!(
                "{id}, changed by the last move, is not marked: {drawn}"
            ));
        }
    }
    let movers: Vec<String> = game["line"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|step| step["mover_name"].as_str().unwrap_or_default().to_string())
        .collect();
    if strings(&drawn["movers"]) != movers {
        return Err(format!(
            "the move list names the movers {}, the line's are {movers:?}",
            drawn["movers"]
        ));
    }
    Ok(())
}

/// Analyses a position reached by clicking until the analysis is done; restarts the server
/// (on the same store) and opens the address in another browser: the stored evaluation shows
/// the analysis's depth and score, and nothing searches.
async fn stored_after_restart(client: Client, setup: Setup) -> Result<(), String> {
    let (page, id) = Page::open(client, &setup).await?;
    page.choose_mode("humans").await?;
    let mut rng = SplitMix64::new(setup.seed);
    let game = play_by_clicking(&page, &id, 3, &mut rng).await?;
    let seen = page.seen().await?;
    if !seen.stored.is_empty() {
        return Err(format!(
            "a stored evaluation before any analysis: {}",
            seen.stored
        ));
    }
    page.type_into("analysis-time", &ANALYSIS_MS.to_string())
        .await?;
    page.click("#analyze").await?;
    page.wait_for("the analysis done", |seen| seen.analysis.contains("done"))
        .await?;
    // The newest row of the iterations: the depth and score the search ended with.
    let row = page
        .js(
            r##"const cells = document.querySelectorAll("#analysis tbody tr:first-child td");
               return Array.from(cells, (cell) => cell.textContent);"##,
        )
        .await?;
    let (depth, score) = (
        row[0].as_str().unwrap_or_default().to_string(),
        row[1].as_str().unwrap_or_default().to_string(),
    );
    if depth.is_empty() || score.is_empty() {
        return Err(format!("no iteration row after the analysis: {row}"));
    }
    let wanted = format!("Stored: {score} at depth {depth} ");
    page.wait_for("the stored evaluation on the first server", |seen| {
        seen.stored.starts_with(&wanted)
    })
    .await?;
    page.click("#analyze").await?;
    page.wait_for("the analysis off", |seen| seen.analysis.is_empty())
        .await?;
    let url = page.seen().await?.url;
    let base = (setup.restart)();
    let copied = format!(
        "{}/?{}",
        base.trim_end_matches('/'),
        url.split_once('?').map_or("", |(_, q)| q)
    );
    let browser = setup.browser.as_ref().ok_or("no browser to open")?;
    let other = session(browser, "stored-profile").await?;
    let answer = async {
        let page = Page {
            client: other.clone(),
            base: base.clone(),
        };
        page.client
            .goto(&copied)
            .await
            .map_err(|e| format!("loading {copied}: {e}"))?;
        let position = game["position"].as_str().unwrap_or_default();
        let seen = page
            .wait_for("the stored evaluation after the restart", |seen| {
                seen.position == position && seen.stored.starts_with(&wanted)
            })
            .await?;
        let shown = page.game(seen.game.as_deref().unwrap_or_default())?;
        if !shown["searching"].is_null() || seen.rows > 0 {
            return Err(format!(
                "a search ran for the stored evaluation: {} with {} rows",
                shown["searching"], seen.rows
            ));
        }
        page.no_console_errors().await
    }
    .await;
    let closed = other.close().await;
    answer?;
    closed.map_err(|e| format!("closing the second session: {e}"))
}
