//! The engine's thread: `katachi play` asks it for moves and hints so that
//! the screen never waits for a search.
//!
//! A [`Job`] carries a copy of the board and an id; the thread answers
//! with the same id, so the app drops answers to questions it no longer
//! asks (after an undo or a new game). A move search gets the engine's
//! clock and a stop flag, raised by [`Worker::stop`]: the engine then
//! answers at once with the best move it has. [`work`] is what the thread
//! runs, callable without a thread so that tests drive the app
//! synchronously.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::five::database::FiveDatabase;
use crate::five::engine::{Engine, Limits, Reason};
use crate::five::explain::{explain_with, Explanation};
use crate::five::FiveBoard;
use crate::position::Point;

/// The deepest line of continuous fours a move search reads.
const VCF_DEPTH: u32 = 12;

/// A question for the engine about one position.
#[derive(Clone, Debug)]
pub struct Job {
    /// Echoed in the answer: the app's count of questions asked.
    pub id: u64,
    pub board: FiveBoard,
    pub task: Task,
}

/// What the engine is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Its move, within a time budget and a search depth.
    Move { budget: Duration, max_depth: u32 },
    /// Its move and why, for a hint (a fixed depth, no clock: the same
    /// hint every time).
    Hint { depth: u32 },
}

/// The engine's answer to [`Job`] `id`.
#[derive(Clone, Debug)]
pub struct Answer {
    pub id: u64,
    pub reply: Reply,
}

#[derive(Clone, Debug)]
pub enum Reply {
    /// The move and why; `None` when the game is over.
    Move(Option<(Point, Reason)>),
    Hint(Explanation),
}

/// The databases the engine plays with, by rule: Pente's games read
/// their own (captures are shapes there), the other rules share one.
/// The start screen may change the rule, so both are kept.
#[derive(Clone, Debug)]
pub struct Databases {
    /// Freestyle's, exact five's and renju's (`patterns/five.db`, or
    /// `--db`, or a `five` personality's re-weighing).
    pub square: Arc<FiveDatabase>,
    /// Pente's (`patterns/pente.db`, or a `pente` personality's).
    pub pente: Arc<FiveDatabase>,
}

impl Databases {
    /// The builtin databases.
    pub fn builtin() -> Databases {
        Databases {
            square: FiveDatabase::builtin(),
            pente: FiveDatabase::pente(),
        }
    }

    /// The database the games of `rule` are played with.
    pub fn for_rule(&self, rule: crate::five::Rule) -> &Arc<FiveDatabase> {
        match rule {
            crate::five::Rule::Pente => &self.pente,
            _ => &self.square,
        }
    }

    /// The one for `rule`'s games replaced by `db`.
    pub fn with(mut self, rule: crate::five::Rule, db: Arc<FiveDatabase>) -> Databases {
        match rule {
            crate::five::Rule::Pente => self.pente = db,
            _ => self.square = db,
        }
        self
    }
}

/// Answers a job with the builtin database of its rule: see
/// [`work_with`].
pub fn work(job: &Job, stop: &AtomicBool, elapsed: &dyn Fn() -> Duration) -> Answer {
    work_with(
        job,
        &FiveDatabase::for_rule(job.board.rule()),
        stop,
        elapsed,
    )
}

/// Answers a job: the engine with the patterns of `db` on the job's
/// board, its time read from `elapsed`, stopped early when `stop` is
/// raised.
pub fn work_with(
    job: &Job,
    db: &Arc<FiveDatabase>,
    stop: &AtomicBool,
    elapsed: &dyn Fn() -> Duration,
) -> Answer {
    let reply = match job.task {
        Task::Move { budget, max_depth } => {
            let mut engine = Engine::with_database(job.board.clone(), Arc::clone(db));
            Reply::Move(engine.choose(&Limits {
                elapsed,
                budget: Some(budget),
                stop,
                max_depth,
                vcf_depth: VCF_DEPTH,
                // A shallow search is a weak one: its threat search too
                // (and tests play whole games with no clock).
                vct_depth: max_depth.min(4),
                table_bytes: crate::five::engine::DEFAULT_TABLE_BYTES,
                proof_search: false,
                max_nodes: None,
            }))
        }
        Task::Hint { depth } => Reply::Hint(explain_with(&job.board, Arc::clone(db), depth, 3)),
    };
    Answer { id: job.id, reply }
}

/// The engine's thread, its questions and answers.
#[derive(Debug)]
pub struct Worker {
    jobs: Option<Sender<(Job, Arc<AtomicBool>)>>,
    answers: Receiver<Answer>,
    /// The stop flag of the last job handed over.
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread with the builtin databases; it ends when the
    /// worker is dropped.
    pub fn spawn() -> Worker {
        Worker::spawn_with(Databases::builtin())
    }

    /// Starts the thread, its engine evaluating each job with the
    /// patterns of `dbs` for the job's rule; it ends when the worker is
    /// dropped.
    pub fn spawn_with(dbs: Databases) -> Worker {
        let (jobs, inbox) = mpsc::channel::<(Job, Arc<AtomicBool>)>();
        let (outbox, answers) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("katachi-play-engine".into())
            .spawn(move || {
                for (job, stop) in inbox {
                    let start = Instant::now();
                    let db = dbs.for_rule(job.board.rule());
                    let answer = work_with(&job, db, &stop, &|| start.elapsed());
                    if outbox.send(answer).is_err() {
                        break;
                    }
                }
            })
            .expect("cannot start the engine's thread");
        Worker {
            jobs: Some(jobs),
            answers,
            stop: Arc::new(AtomicBool::new(false)),
            thread: Some(thread),
        }
    }

    /// Hands a job to the thread (after any it is still working on).
    pub fn submit(&mut self, job: Job) {
        self.stop = Arc::new(AtomicBool::new(false));
        if let Some(jobs) = &self.jobs {
            // A send fails only when the thread is gone, which `answers`
            // then reports by never answering: the app shows it thinking.
            let _ = jobs.send((job, Arc::clone(&self.stop)));
        }
    }

    /// Asks the last job handed over to finish now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// An answer, if one is ready.
    pub fn try_recv(&self) -> Option<Answer> {
        self.answers.try_recv().ok()
    }

    /// Waits for the next answer (`None` when the thread has ended).
    pub fn recv(&self) -> Option<Answer> {
        self.answers.recv().ok()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
        // Closing the channel ends the thread's loop once its job stops.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::five::Rule;

    fn board() -> FiveBoard {
        let mut b = FiveBoard::new(15, Rule::Freestyle).unwrap();
        for (i, j) in [(7, 7), (7, 8), (8, 8)] {
            b.play(Point::new(i, j)).unwrap();
        }
        b
    }

    #[test]
    fn the_thread_answers_each_job_with_its_id() {
        let mut w = Worker::spawn();
        w.submit(Job {
            id: 7,
            board: board(),
            task: Task::Move {
                budget: Duration::from_secs(60),
                max_depth: 2,
            },
        });
        let a = w.recv().expect("an answer");
        assert_eq!(a.id, 7);
        let Reply::Move(Some((p, _))) = a.reply else {
            panic!("{a:?}")
        };
        assert!(board().is_legal(p));
        w.submit(Job {
            id: 8,
            board: board(),
            task: Task::Hint { depth: 2 },
        });
        let a = w.recv().expect("an answer");
        assert_eq!(a.id, 8);
        assert!(matches!(a.reply, Reply::Hint(e) if e.chosen.is_some()));
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        // Raised before the search starts: the deepest search there is
        // must come back at once with a move all the same.
        let stop = AtomicBool::new(true);
        let job = Job {
            id: 1,
            board: board(),
            task: Task::Move {
                budget: Duration::from_secs(3600),
                max_depth: 40,
            },
        };
        let a = work(&job, &stop, &|| Duration::ZERO);
        let Reply::Move(Some((p, _))) = a.reply else {
            panic!("{a:?}")
        };
        assert!(board().is_legal(p));
    }
}
