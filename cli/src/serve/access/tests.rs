use std::net::Ipv4Addr;

use axum::http::HeaderValue;

use super::*;

fn local(port: u16) -> Access {
    Access::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port, Vec::new())
}

fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
    }
    map
}

fn get(access: &Access, host: &str) -> Result<(), Refusal> {
    access.check(
        &Method::GET,
        &Uri::from_static("/api/info"),
        &headers(&[(header::HOST, host)]),
    )
}

#[test]
fn only_this_servers_names_at_its_port_are_hosts() {
    let access = local(8080);
    for host in [
        "localhost:8080",
        "LOCALHOST:8080",
        "127.0.0.1:8080",
        "[::1]:8080",
    ] {
        assert_eq!(get(&access, host), Ok(()), "{host}");
    }
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost",
        "localhost:8081",
        "127.0.0.1",
        "127.0.0.2:8081",
        "192.168.1.5:8080",
        "::1:8080",
        "localhost.:8080",
        "user@localhost:8080",
        "localhost:99999",
        "localhost:",
        "localhost:+80",
        "",
    ] {
        assert!(
            matches!(get(&access, host), Err(Refusal::ForeignHost(_))),
            "{host}"
        );
    }
    // Port 80 is the port of a Host without one.
    assert_eq!(get(&local(80), "localhost"), Ok(()));
    let missing = access.check(&Method::GET, &Uri::from_static("/"), &HeaderMap::new());
    assert_eq!(missing, Err(Refusal::MissingHost));
    // HTTP/2 style: the authority in the request line.
    let absolute = Uri::from_static("http://localhost:8080/api/info");
    assert_eq!(
        access.check(&Method::GET, &absolute, &HeaderMap::new()),
        Ok(())
    );
}

#[test]
fn an_address_other_than_loopback_is_its_own_host() {
    let lan = Access::new("192.168.1.5".parse().unwrap(), 8080, Vec::new());
    assert_eq!(get(&lan, "192.168.1.5:8080"), Ok(()));
    assert!(get(&lan, "192.168.1.6:8080").is_err());
    assert!(get(&lan, "myhost.lan:8080").is_err());
    // Every address: any address typed as digits, never a name.
    let any = Access::new("0.0.0.0".parse().unwrap(), 8080, Vec::new());
    assert_eq!(get(&any, "10.0.0.7:8080"), Ok(()));
    assert_eq!(get(&any, "[fe80::1]:8080"), Ok(()));
    assert!(get(&any, "evil.example:8080").is_err());
    assert!(get(&any, "10.0.0.7:9090").is_err());
    // Names given with --allow-host, at the server's port or their own.
    let named = Access::new(
        "0.0.0.0".parse().unwrap(),
        8080,
        vec![
            "MyHost.lan".parse().unwrap(),
            "proxy.lan:443".parse().unwrap(),
        ],
    );
    assert_eq!(get(&named, "myhost.lan:8080"), Ok(()));
    assert_eq!(get(&named, "proxy.lan:443"), Ok(()));
    assert!(get(&named, "proxy.lan:8080").is_err());
    assert!(get(&named, "myhost.lan:9090").is_err());
    for bad in ["", "a@b", "host:x", "host:70000", "http://host", "*"] {
        assert!(bad.parse::<AllowedHost>().is_err(), "{bad}");
    }
}

#[test]
fn state_changes_from_another_site_are_refused() {
    let access = local(8080);
    let post = |pairs: &[(header::HeaderName, &str)]| {
        let mut all = vec![(header::HOST, "127.0.0.1:8080")];
        all.extend_from_slice(pairs);
        access.check(
            &Method::POST,
            &Uri::from_static("/api/games"),
            &headers(&all),
        )
    };
    let json = (header::CONTENT_TYPE, "application/json");
    assert_eq!(post(std::slice::from_ref(&json)), Ok(()));
    for origin in [
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://[::1]:8080",
    ] {
        assert_eq!(
            post(&[json.clone(), (header::ORIGIN, origin)]),
            Ok(()),
            "{origin}"
        );
    }
    for origin in [
        "http://evil.example",
        "http://evil.example:8080",
        "https://evil.example",
        "http://127.0.0.1:8081",
        "http://localhost",
        "null",
        "file://",
        "http://127.0.0.1:8080@evil.example",
    ] {
        assert!(
            matches!(
                post(&[json.clone(), (header::ORIGIN, origin)]),
                Err(Refusal::ForeignOrigin(_))
            ),
            "{origin}"
        );
    }
    let delete = access.check(
        &Method::DELETE,
        &Uri::from_static("/api/games/1"),
        &headers(&[
            (header::HOST, "localhost:8080"),
            (header::ORIGIN, "http://evil.example"),
        ]),
    );
    assert!(matches!(delete, Err(Refusal::ForeignOrigin(_))));
    // Reading is not a change: the Origin does not matter (no CORS header lets another
    // site read the answer).
    let read = access.check(
        &Method::GET,
        &Uri::from_static("/api/info"),
        &headers(&[
            (header::HOST, "localhost:8080"),
            (header::ORIGIN, "http://evil.example"),
        ]),
    );
    assert_eq!(read, Ok(()));
}

#[test]
fn bodies_must_say_they_are_json() {
    let access = local(8080);
    let post = |kind: Option<&str>| {
        let mut all = vec![(header::HOST, "127.0.0.1:8080")];
        if let Some(kind) = kind {
            all.push((header::CONTENT_TYPE, kind));
        }
        access.check(
            &Method::POST,
            &Uri::from_static("/api/games"),
            &headers(&all),
        )
    };
    for good in [
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
    ] {
        assert_eq!(post(Some(good)), Ok(()), "{good}");
    }
    assert_eq!(post(None), Err(Refusal::NotJson(None)));
    for bad in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "",
    ] {
        let refusal = post(Some(bad)).unwrap_err();
        assert_eq!(
            refusal.status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{bad}"
        );
        assert!(!refusal.to_string().contains('\n'));
    }
}
