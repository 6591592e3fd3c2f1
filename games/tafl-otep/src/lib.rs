//! # plies-tafl-otep
//!
//! The OpenTafl Engine Protocol (OTEP) for [`plies_tafl`], apart from the rules crate: the
//! engine side ([`engine`]: [`engine::OtepEngine`], [`engine::run_engine`]), the host side
//! ([`referee`]: [`referee::run_match`] plays two engine processes against each other; and
//! [`agent::OtepAgent`], an engine process as an agent of plies' arena), and
//! two binaries: `tafl-otep`, the engine on stdin/stdout, and `tafl-otep-script`, a scripted
//! engine for tests.
//!
//! Every protocol line received or sent is a `tracing` debug event (target
//! `plies_tafl_otep::engine` or `plies_tafl_otep::referee`); a program that installs a
//! subscriber sees the whole conversation.
//!
//! Key invariant: this crate only speaks the protocol; every rule of the game (moves,
//! captures, repetition, endings) comes from `plies-tafl`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod agent;
pub mod engine;
pub mod referee;
