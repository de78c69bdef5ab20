//! `check`'s progress bar: on stderr when it is a terminal, in the human
//! format only, and only once a run has taken [`DELAY`] without being done
//! (a quick run never flickers a bar). It shows objects done of all, the
//! rate and the time left. What to show when is decided by the pure
//! functions here; [`Progress`] only drives indicatif with them.

use super::Format;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a run goes before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Whether a run may show a bar at all: not with `--quiet`, not in the
/// machine-read formats, not for one object, and only on a terminal.
pub fn wanted(quiet: bool, format: Format, inputs: usize, stderr_is_terminal: bool) -> bool {
    !quiet && format == Format::Human && inputs > 1 && stderr_is_terminal
}

/// Whether the bar should be on screen after `elapsed` with `done` of
/// `total` objects checked.
pub fn due(elapsed: Duration, done: u64, total: u64) -> bool {
    elapsed >= DELAY && done < total
}

/// `12/s, ETA 0:42`: objects a second so far and the time left at that
/// rate (`ETA --` before the first object is done).
pub fn rate_eta(elapsed: Duration, done: u64, total: u64) -> String {
    let secs = elapsed.as_secs_f64();
    if done == 0 || secs <= 0.0 {
        return "0/s, ETA --".to_string();
    }
    let rate = done as f64 / secs;
    let rate_text = if rate >= 10.0 {
        format!("{rate:.0}/s")
    } else {
        format!("{rate:.1}/s")
    };
    let left = (total.saturating_sub(done) as f64 / rate).ceil() as u64;
    format!("{rate_text}, ETA {}", clock(left))
}

/// `0:42`, `12:05`, `1:02:03`.
fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The bar of one run. Hidden until [`due`]; a watcher thread puts it on
/// stderr then, so it appears even while one slow object is being checked.
pub struct Progress {
    bar: ProgressBar,
    watcher: Option<(Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// A bar over `total` objects; one that never shows unless `enabled`.
    pub fn new(total: usize, enabled: bool) -> Progress {
        let total = total as u64;
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} objects, {rate_eta}")
            .expect("progress template")
            .with_key(
                "rate_eta",
                |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate_eta(s.elapsed(), s.pos(), s.len().unwrap_or(0)));
                },
            );
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden())
            .with_style(style);
        let watcher = enabled.then(|| {
            let (stop, stopped) = mpsc::channel::<()>();
            let b = bar.clone();
            let h = std::thread::spawn(move || {
                loop {
                    match stopped.recv_timeout(Duration::from_millis(100)) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                    if due(b.elapsed(), b.position(), total) {
                        b.set_draw_target(ProgressDrawTarget::stderr());
                        b.enable_steady_tick(Duration::from_millis(250));
                        let _ = stopped.recv();
                        return;
                    }
                }
            });
            (stop, h)
        });
        Progress { bar, watcher }
    }

    /// One more object done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Runs `f` (which writes to the terminal) with the bar off the screen.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Takes the bar off the screen for good.
    pub fn finish(mut self) {
        if let Some((stop, h)) = self.watcher.take() {
            drop(stop);
            let _ = h.join();
        }
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(f64) -> Duration = Duration::from_secs_f64;

    #[test]
    fn shown_after_a_second_until_done() {
        assert!(!due(S(0.0), 0, 100));
        assert!(!due(S(0.99), 50, 100));
        assert!(due(S(1.0), 0, 100));
        assert!(due(S(30.0), 99, 100));
        // A run that is done by then shows nothing.
        assert!(!due(S(1.5), 100, 100));
    }

    #[test]
    fn only_for_people_at_a_terminal() {
        assert!(wanted(false, Format::Human, 2, true));
        assert!(!wanted(true, Format::Human, 2, true));
        assert!(!wanted(false, Format::Human, 1, true));
        assert!(!wanted(false, Format::Human, 2, false));
        for f in [Format::Short, Format::Json, Format::Sarif, Format::Objtool] {
            assert!(!wanted(false, f, 2, true), "{f:?}");
        }
    }

    #[test]
    fn rate_and_time_left() {
        assert_eq!(rate_eta(S(2.0), 0, 100), "0/s, ETA --");
        assert_eq!(rate_eta(S(2.0), 10, 100), "5.0/s, ETA 0:18");
        assert_eq!(rate_eta(S(4.0), 100, 3100), "25/s, ETA 2:00");
        assert_eq!(rate_eta(S(1.0), 1, 7201), "1.0/s, ETA 2:00:00");
        // Rounded up: 1 s left is not "0:00".
        assert_eq!(rate_eta(S(3.0), 2, 3), "0.7/s, ETA 0:02");
        assert_eq!(rate_eta(S(1.0), 5, 5), "5.0/s, ETA 0:00");
    }
}
