//! Retention: the terminal tasks deleted once they are old enough (when the handler is asked
//! to), and the event logs of ended tasks trimmed to their last event (see `store`'s docs,
//! "Retention"). One task per handler does both, every tenth of the shorter age (between 100
//! ms and a minute); of several replicas each does it, and what one deleted the others find
//! gone.

use std::sync::Weak;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_types::rt::UnixTime;

use super::Shared;

/// How long after a task ends its event log is trimmed, unless set.
pub const DEFAULT_LOG_RETENTION: Duration = Duration::from_secs(300);

/// How many ended tasks one statement deletes at most (the next one goes on).
const BATCH: u32 = 100;

/// What the handler keeps of ended tasks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Retention {
    /// Ended tasks are deleted this long after their last update.
    pub(super) tasks: Option<Duration>,
    /// Event logs of ended tasks are trimmed this long after their last update; `None`: the
    /// handler logs no events.
    pub(super) logs: Option<Duration>,
}

impl Retention {
    /// Whether there is anything to do.
    pub(super) fn runs(&self) -> bool {
        self.tasks.is_some() || self.logs.is_some()
    }

    fn period(&self) -> Duration {
        let shortest = [self.tasks, self.logs].into_iter().flatten().min();
        let period = shortest.unwrap_or(Duration::from_secs(60)) / 10;
        period.clamp(Duration::from_millis(100), Duration::from_secs(60))
    }
}

/// `age` before now, by this process's clock (the one the store sorted tasks by, when their
/// status had no time).
fn ago(age: Duration) -> UnixTime {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .saturating_sub(age);
    UnixTime {
        seconds: i64::try_from(now.as_secs()).unwrap_or(i64::MAX),
        nanos: now.subsec_nanos(),
    }
}

/// Deletes and trims, every period, until the handler is gone.
pub(super) async fn keep<E>(shared: Weak<Shared<E>>, retention: Retention) {
    // The logs of tasks that ended before this one started are trimmed by the first round.
    let mut trimmed_to = UnixTime {
        seconds: i64::MIN,
        nanos: 0,
    };
    let mut tick = tokio::time::interval(retention.period());
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        if let Some(age) = retention.tasks {
            let before = ago(age);
            loop {
                match shared.tasks.delete_ended(before, BATCH).await {
                    Ok(deleted) if deleted == u64::from(BATCH) => tokio::task::yield_now().await,
                    Ok(_) => break,
                    Err(e) => {
                        tracing::warn!(target: "a2a_agent::store", error = %e, "could not delete ended tasks");
                        break;
                    }
                }
            }
        }
        if let Some(age) = retention.logs {
            let to = ago(age);
            match shared.tasks.trim_ended_logs(trimmed_to, to).await {
                Ok(_) => trimmed_to = to,
                Err(e) => {
                    tracing::warn!(target: "a2a_agent::store", error = %e, "could not trim the logs of ended tasks")
                }
            }
        }
    }
}
