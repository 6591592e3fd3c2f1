//! Running many games: engines given as factories, a [`Schedule`] of (opening × colours ×
//! pairing) games, and an [`Arena`] that plays them on one or more worker threads.
//!
//! Key invariants:
//! - game `id` of a schedule always means the same opening, pairing and colours, so records of a
//!   killed run can be handed back to [`Arena::run`] to play only the missing games;
//! - each worker builds its own agents once (one per engine) and starts every game
//!   with [`Agent::new_game`] and a seed derived from the run's seed and the game's id, so with
//!   depth or node limits a game's moves do not depend on the worker count or on which games a
//!   worker played before: the records are the same every run;
//! - records come back sorted by `id`; the per-game callback sees them in finishing order, and a
//!   worker starts its next game only after the callback has seen its last one, so a stop flag
//!   raised by the callback lets only the games already in progress finish.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use crate::arena::play::{GameSpec, GameTask, TextHooks, play_game};
use crate::arena::record::GameRecord;
use plies::Game;
use plies::Notation;
use plies::agent::Agent;
use plies::rng::SplitMix64;
use plies::search::{Clock, SearchLimits};

/// A finished game on its way from a worker to the thread running [`Arena::run`], with the
/// channel on which that thread says it is done with it.
type Finished = (GameRecord, mpsc::Sender<()>);

/// Makes a fresh agent of one engine configuration (called once per worker and colour).
pub type AgentFactory<G> = Arc<dyn Fn() -> Box<dyn Agent<G>> + Send + Sync>;

/// A named engine configuration.
pub struct Engine<G: Game> {
    /// The name shown in tables and records (unique within a run).
    pub name: String,
    /// Makes agents of this configuration.
    pub factory: AgentFactory<G>,
}

impl<G: Game> Clone for Engine<G> {
    fn clone(&self) -> Self {
        Engine {
            name: self.name.clone(),
            factory: Arc::clone(&self.factory),
        }
    }
}

impl<G: Game> Engine<G> {
    /// An engine called `name` whose agents `factory` makes.
    pub fn new(
        name: impl Into<String>,
        factory: impl Fn() -> Box<dyn Agent<G>> + Send + Sync + 'static,
    ) -> Engine<G> {
        Engine {
            name: name.into(),
            factory: Arc::new(factory),
        }
    }
}

/// The games of a run, in order. Game `id` = index in `tasks`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Schedule {
    /// The games to play.
    pub tasks: Vec<GameTask>,
}

impl Schedule {
    /// Engine 0 against engine 1: each opening twice, engine 0 playing [`plies::Side::First`] in
    /// the even game and [`plies::Side::Second`] in the odd one.
    #[must_use]
    pub fn head_to_head(openings: usize) -> Schedule {
        Schedule::pairings(&[(0, 1)], openings)
    }

    /// Every pair of `engines` engines, each opening twice with colours swapped; pairings in
    /// order (0,1), (0,2), …, (1,2), …; all games of a pairing together.
    #[must_use]
    pub fn round_robin(engines: usize, openings: usize) -> Schedule {
        let pairs: Vec<(usize, usize)> = (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect();
        Schedule::pairings(&pairs, openings)
    }

    /// The given pairings, each over every opening and both colours.
    #[must_use]
    pub fn pairings(pairs: &[(usize, usize)], openings: usize) -> Schedule {
        let mut tasks = Vec::with_capacity(pairs.len() * openings * 2);
        for &(a, b) in pairs {
            for opening in 0..openings {
                for engines in [[a, b], [b, a]] {
                    tasks.push(GameTask {
                        id: tasks.len(),
                        opening,
                        engines,
                    });
                }
            }
        }
        Schedule { tasks }
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// No games at all?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The per-move budget of every agent (depth, nodes or time).
    pub limits: SearchLimits,
    /// A clock time control: both sides' clocks at the start of each game (their moves are then
    /// timed from it, see [`GameSpec::clock`]); `None` for per-move limits only.
    pub clock: Option<Clock>,
    /// The draw rule: a game still running after this many moves is a draw.
    pub max_plies: u32,
    /// Games played at the same time, one per worker thread (at least 1). With time limits,
    /// use at most one per core so that engines get the time they are given.
    pub workers: usize,
    /// The run's seed; each game's agents get a seed derived from it and the game's id.
    pub seed: u64,
    /// Raised from outside to stop the run after the games in progress (they still finish).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for ArenaConfig {
    /// Depth 4 per move, cap 200 plies, one worker, seed 0.
    fn default() -> Self {
        ArenaConfig {
            limits: SearchLimits::depth(4),
            clock: None,
            max_plies: 200,
            workers: 1,
            seed: 0,
            stop: None,
        }
    }
}

impl ArenaConfig {
    /// The default number of workers for this machine: one game per core.
    #[must_use]
    pub fn default_workers() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// How far a run has got, given with every finished game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Progress {
    /// Games finished, including those finished by earlier runs.
    pub done: usize,
    /// Games in the schedule.
    pub total: usize,
}

/// Engines, openings and settings: everything needed to play a schedule.
pub struct Arena<G: Game> {
    engines: Vec<Engine<G>>,
    openings: Vec<G>,
    config: ArenaConfig,
    text: Option<TextHooks<G>>,
}

impl<G: Game> Arena<G> {
    /// An arena for these engines and openings (records hold no move text; see
    /// [`Arena::with_notation`]).
    #[must_use]
    pub fn new(engines: Vec<Engine<G>>, openings: Vec<G>, config: ArenaConfig) -> Arena<G> {
        Arena {
            engines,
            openings,
            config,
            text: None,
        }
    }

    /// Records write openings and moves in the game's notation.
    #[must_use]
    pub fn with_notation(mut self) -> Arena<G>
    where
        G: Notation,
    {
        self.text = Some(TextHooks::notation());
        self
    }

    /// The engines, in index order.
    #[must_use]
    pub fn engines(&self) -> &[Engine<G>] {
        &self.engines
    }

    /// The engines' names, in index order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The openings.
    #[must_use]
    pub fn openings(&self) -> &[G] {
        &self.openings
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ArenaConfig {
        &self.config
    }

    /// The schedule of a head-to-head match of engines 0 and 1 over all openings.
    #[must_use]
    pub fn head_to_head(&self) -> Schedule {
        Schedule::head_to_head(self.openings.len())
    }

    /// The seed given to both agents of game `id`.
    #[must_use]
    pub fn game_seed(&self, id: usize) -> u64 {
        let mut rng =
            SplitMix64::new(self.config.seed ^ (id as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        rng.next_u64()
    }

    /// Plays every game of `schedule` not already in `done` (records of an earlier, interrupted
    /// run of the same schedule), calling `on_game` on this thread as each one finishes.
    /// Returns all records, `done` included, sorted by id.
    ///
    /// # Panics
    /// If a task names an engine or opening that does not exist.
    pub fn run(
        &self,
        schedule: &Schedule,
        done: &[GameRecord],
        on_game: &mut dyn FnMut(&GameRecord, Progress),
    ) -> Vec<GameRecord> {
        for task in &schedule.tasks {
            assert!(
                task.engines.iter().all(|&e| e < self.engines.len()),
                "no engine for {task:?}"
            );
            assert!(
                task.opening < self.openings.len(),
                "no opening for {task:?}"
            );
        }
        let mut records: Vec<GameRecord> = done.to_vec();
        let todo: Vec<GameTask> = schedule
            .tasks
            .iter()
            .filter(|task| !done.iter().any(|r| r.id == task.id))
            .copied()
            .collect();
        let total = schedule.len();
        let next = AtomicUsize::new(0);
        let workers = self.config.workers.clamp(1, todo.len().max(1));
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let sender = sender.clone();
                let (next, todo) = (&next, &todo);
                scope.spawn(move || self.work(todo, next, &sender));
            }
            drop(sender);
            for (record, ack) in receiver {
                records.push(record);
                let progress = Progress {
                    done: records.len(),
                    total,
                };
                let last = records.last().expect("just pushed");
                tracing::info!(
                    game = last.id,
                    first = %last.names[0],
                    second = %last.names[1],
                    result = ?last.result,
                    termination = ?last.termination,
                    plies = last.plies,
                    done = progress.done,
                    total = progress.total,
                    "arena game finished"
                );
                on_game(last, progress);
                // The worker waits for this before taking another game, so a stop flag raised by
                // `on_game` (a decided SPRT, a failed write) is seen before any new game starts.
                let _ = ack.send(());
            }
        });
        records.sort_by_key(|r| r.id);
        records
    }

    /// One worker: takes tasks until none are left (or the stop flag is raised).
    fn work(&self, todo: &[GameTask], next: &AtomicUsize, sender: &mpsc::Sender<Finished>) {
        let (ack_sender, ack) = mpsc::channel();
        // agents[engine][copy], made on first use; the second copy only for an engine playing
        // itself (big tables such as a transposition table exist once per engine and worker).
        let mut agents: Vec<[Option<Box<dyn Agent<G>>>; 2]> =
            (0..self.engines.len()).map(|_| [None, None]).collect();
        let spec = GameSpec {
            limits: &self.config.limits,
            clock: self.config.clock,
            max_plies: self.config.max_plies,
            text: self.text,
        };
        loop {
            if self
                .config
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return;
            }
            let Some(&task) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let [e0, e1] = task.engines;
            let make = |engine: usize| (self.engines[engine].factory)();
            let copy = usize::from(e0 == e1);
            let mut first = agents[e0][0].take().unwrap_or_else(|| make(e0));
            let mut second = agents[e1][copy].take().unwrap_or_else(|| make(e1));
            let record = play_game(
                task,
                &self.openings[task.opening],
                [first.as_mut(), second.as_mut()],
                [self.engines[e0].name.clone(), self.engines[e1].name.clone()],
                &spec,
                self.game_seed(task.id),
            );
            agents[e0][0] = Some(first);
            agents[e1][copy] = Some(second);
            if sender.send((record, ack_sender.clone())).is_err() || ack.recv().is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
