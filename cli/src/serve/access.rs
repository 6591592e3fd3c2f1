//! Who may talk to the server: the rules that keep other web sites out. A page the user visits
//! elsewhere can make the browser send requests to `serve` (a form or `fetch` to
//! `http://127.0.0.1:8080/...`), or point a name of its own at this machine (DNS rebinding) and
//! read the answers as its own. So every request must name this server in its `Host` header,
//! a state-changing one (`POST`, `PUT`, `PATCH`, `DELETE`) must not come from another site's
//! page (its `Origin`, when present, names this server), and one with a body (`POST`, `PUT`,
//! `PATCH`) must say `Content-Type: application/json`, which no form and no "simple"
//! cross-site request can send.
//!
//! Key invariant: a name is this server's only at the port it listens on, and only if it is
//! `localhost`, `127.0.0.1`, `[::1]`, the address it listens on (any IP address when that is
//! `0.0.0.0` or `::`: an address typed as digits cannot be rebound to another site), or a
//! name given with `--allow-host`; everything else is refused before any handler runs.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use axum::http::uri::{Authority, Uri};
use axum::http::{HeaderMap, Method, StatusCode, header};

/// A name the server answers to beside the built-in ones (`--allow-host NAME[:PORT]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AllowedHost {
    /// The name, lower case.
    name: String,
    /// The port, if given (otherwise the port the server listens on).
    port: Option<u16>,
}

/// Why an `--allow-host` value is refused: it is not `NAME` or `NAME:PORT` (the text, cut
/// short if long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BadHost(String);

impl std::fmt::Display for BadHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad host '{}': expected NAME or NAME:PORT (port 0..=65535)",
            self.0
        )
    }
}

impl std::error::Error for BadHost {}

impl FromStr for AllowedHost {
    type Err = BadHost;

    fn from_str(text: &str) -> Result<AllowedHost, BadHost> {
        let bad = || BadHost(plies::excerpt(text));
        if text.contains(['/', '*']) {
            return Err(bad());
        }
        let (name, port) = split_authority(text).ok_or_else(bad)?;
        Ok(AllowedHost {
            name: name.to_ascii_lowercase(),
            port,
        })
    }
}

/// The host and the port of `text`, an authority as in a URL (`NAME`, `NAME:PORT`,
/// `[IPV6]:PORT`); `None` if it is not one (user info, an empty name, a port that is not
/// 0..=65535 in digits).
fn split_authority(text: &str) -> Option<(&str, Option<u16>)> {
    if text.contains('@') {
        return None;
    }
    let authority = Authority::from_str(text).ok()?;
    let host = authority.host();
    if host.is_empty() {
        return None;
    }
    let rest = text.get(host.len()..)?;
    if rest.is_empty() {
        return Some((text.get(..host.len())?, None));
    }
    let digits = rest.strip_prefix(':')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((text.get(..host.len())?, Some(digits.parse().ok()?)))
}

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refusal {
    /// No `Host` header (and no authority in the request line).
    MissingHost,
    /// The `Host` names another server (a rebound name, or a mistyped address).
    ForeignHost(String),
    /// A state-changing request from another site's page.
    ForeignOrigin(String),
    /// A body without `Content-Type: application/json` (the content type given, if any).
    NotJson(Option<String>),
}

impl Refusal {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::MissingHost => StatusCode::BAD_REQUEST,
            Refusal::ForeignHost(_) | Refusal::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            Refusal::NotJson(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::MissingHost => write!(f, "refused: the request has no Host header"),
            Refusal::ForeignHost(host) => write!(
                f,
                "refused: Host '{}' is not this server (use its address, localhost or \
                 127.0.0.1 with its port, or start serve with --allow-host)",
                plies::excerpt(host)
            ),
            Refusal::ForeignOrigin(origin) => write!(
                f,
                "refused: a cross-site request from Origin '{}'",
                plies::excerpt(origin)
            ),
            Refusal::NotJson(None) => {
                write!(
                    f,
                    "refused: the request needs Content-Type: application/json"
                )
            }
            Refusal::NotJson(Some(kind)) => write!(
                f,
                "refused: Content-Type '{}' is not application/json",
                plies::excerpt(kind)
            ),
        }
    }
}

/// The names and the port the server answers to.
#[derive(Clone, Debug)]
pub(super) struct Access {
    /// The address it listens on.
    listen: IpAddr,
    /// The port it listens on.
    port: u16,
    /// The names of `--allow-host`.
    extra: Vec<AllowedHost>,
}

impl Access {
    /// The rules of a server listening on `listen`:`port`, also answering to `extra`.
    pub fn new(listen: IpAddr, port: u16, extra: Vec<AllowedHost>) -> Access {
        Access {
            listen,
            port,
            extra,
        }
    }

    /// Whether `host` (as in a URL: a name, an IPv4 address, or an IPv6 address in brackets)
    /// at `port` is this server.
    fn is_this_server(&self, host: &str, port: u16) -> bool {
        let host = host.to_ascii_lowercase();
        if self
            .extra
            .iter()
            .any(|allowed| allowed.name == host && allowed.port.unwrap_or(self.port) == port)
        {
            return true;
        }
        if port != self.port {
            return false;
        }
        if host == "localhost" {
            return true;
        }
        let digits = host
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .unwrap_or(&host);
        match digits.parse::<IpAddr>() {
            // An IPv6 address must come in brackets (as in a URL).
            Ok(IpAddr::V6(_)) if digits.len() == host.len() => false,
            Ok(address) => {
                address.is_loopback() || self.listen.is_unspecified() || address == self.listen
            }
            Err(_) => false,
        }
    }

    /// The refusal of a request with `method`, `uri` and `headers`, if it is refused.
    ///
    /// # Errors
    /// The request is refused (see the module docs): the reason.
    pub fn check(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        self.check_host(uri, headers)?;
        let changes = matches!(
            *method,
            Method::POST | Method::PUT | Method::PATCH | Method::DELETE
        );
        if changes {
            self.check_origin(headers)?;
        }
        if matches!(*method, Method::POST | Method::PUT | Method::PATCH) {
            check_json(headers)?;
        }
        Ok(())
    }

    fn check_host(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let text = match headers.get(header::HOST) {
            Some(value) => String::from_utf8_lossy(value.as_bytes()).into_owned(),
            None => match uri.authority() {
                Some(authority) => authority.as_str().to_string(),
                None => return Err(Refusal::MissingHost),
            },
        };
        let foreign = || Refusal::ForeignHost(text.clone());
        let (host, port) = split_authority(&text).ok_or_else(foreign)?;
        if self.is_this_server(host, port.unwrap_or(80)) {
            Ok(())
        } else {
            Err(foreign())
        }
    }

    fn check_origin(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(value) = headers.get(header::ORIGIN) else {
            // Not from a page (a command-line client), or from a page of this server's own
            // origin in a browser that sends none: the Host check has done its part.
            return Ok(());
        };
        let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
        let foreign = || Refusal::ForeignOrigin(text.clone());
        // "null" (a sandboxed page, a file) and anything that is not a web origin are refused.
        let uri = Uri::from_str(&text).map_err(|_| foreign())?;
        let default_port = match uri.scheme_str() {
            Some("http") => 80,
            Some("https") => 443,
            _ => return Err(foreign()),
        };
        let authority = uri.authority().ok_or_else(foreign)?;
        if uri.path_and_query().is_some_and(|p| p != "/") {
            return Err(foreign());
        }
        let (host, port) = split_authority(authority.as_str()).ok_or_else(foreign)?;
        if self.is_this_server(host, port.unwrap_or(default_port)) {
            Ok(())
        } else {
            Err(foreign())
        }
    }
}

/// Whether the request says its body is JSON (`application/json`, parameters such as
/// `charset` allowed, in any case).
fn check_json(headers: &HeaderMap) -> Result<(), Refusal> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(Refusal::NotJson(None));
    };
    let text = String::from_utf8_lossy(value.as_bytes());
    let essence = text.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/json") {
        Ok(())
    } else {
        Err(Refusal::NotJson(Some(text.into_owned())))
    }
}

#[cfg(test)]
mod tests;
