//! What replicas tell each other, as text: the payload of a PostgreSQL notification, or of a
//! row of SQLite's `a2a_wakeups`. JSON, so that any tenant and task id (quotes, newlines) travel
//! intact.

use std::collections::BTreeSet;

use tokio::sync::{broadcast, mpsc, oneshot};

use super::Wakeup;

/// How many wake-ups a replica keeps for a slow reader before it says [`Wakeup::Resync`].
const WAKEUPS: usize = 4096;

/// What a feed holds: its replica's id, the wake-ups it hands out, the queue of what it sends,
/// and the stop of its background tasks (dropped with the feed).
#[derive(Debug)]
pub(super) struct Ends {
    replica: String,
    wakeups: broadcast::Sender<Wakeup>,
    outbox: mpsc::UnboundedSender<Wakeup>,
    _stop: oneshot::Sender<()>,
}

/// The other ends, for the feed's background tasks: the wake-ups to hand out, the queue to send,
/// and the stop to watch.
pub(super) struct Tasks {
    pub(super) replica: String,
    pub(super) wakeups: broadcast::Sender<Wakeup>,
    pub(super) queued: mpsc::UnboundedReceiver<Wakeup>,
    pub(super) stopped: oneshot::Receiver<()>,
}

/// A new feed's two ends, under a fresh replica id (a UUID).
pub(super) fn ends() -> (Ends, Tasks) {
    let replica = uuid::Uuid::new_v4().to_string();
    let (wakeups, _) = broadcast::channel(WAKEUPS);
    let (outbox, queued) = mpsc::unbounded_channel();
    let (stop, stopped) = oneshot::channel();
    let tasks = Tasks {
        replica: replica.clone(),
        wakeups: wakeups.clone(),
        queued,
        stopped,
    };
    let ends = Ends {
        replica,
        wakeups,
        outbox,
        _stop: stop,
    };
    (ends, tasks)
}

impl Ends {
    pub(super) fn replica_id(&self) -> &str {
        &self.replica
    }

    /// Queues `wakeup` for the sender task (gone only once it stopped: nobody hears it then).
    pub(super) fn queue(&self, wakeup: Wakeup) {
        let _ = self.outbox.send(wakeup);
    }

    pub(super) fn subscribe(&self) -> broadcast::Receiver<Wakeup> {
        self.wakeups.subscribe()
    }
}

/// The next wake-ups to send: the first to come, and every other queued by then (sent together,
/// once each); `None` once the feed is gone.
pub(super) async fn next_batch(
    queued: &mut mpsc::UnboundedReceiver<Wakeup>,
) -> Option<BTreeSet<Wakeup>> {
    let mut wakeups = BTreeSet::from([queued.recv().await?]);
    while let Ok(next) = queued.try_recv() {
        wakeups.insert(next);
    }
    Some(wakeups)
}

/// A payload stays under this many bytes (PostgreSQL refuses a notification of 8000).
pub(super) const PAYLOAD_LIMIT: usize = 7_000;

/// The payloads that carry `wakeups`, each under [`PAYLOAD_LIMIT`]: `{"r": replica, "t":
/// [[tenant, id], ...], "c": [[tenant, id], ...], "s": true, "y": true}` (`t` tasks whose log
/// grew, `c` tasks to cancel, `s` a sweep, `y` a resync; each key only when it has something).
/// A task whose name alone is too long is sent as a resync (everyone reads every log again).
pub(super) fn payloads(replica: &str, wakeups: BTreeSet<Wakeup>) -> Vec<String> {
    use serde_json::{json, Map, Value};
    let mut out = Vec::new();
    let mut current = Map::new();
    let mut size = replica.len() + 16;
    let flush = |current: &mut Map<String, Value>, out: &mut Vec<String>| {
        if !current.is_empty() {
            let mut message = std::mem::take(current);
            message.insert("r".into(), json!(replica));
            out.push(Value::Object(message).to_string());
        }
    };
    for wakeup in wakeups {
        let (key, entry) = match wakeup {
            Wakeup::Task { tenant, task_id } => ("t", json!([tenant, task_id])),
            Wakeup::Cancel {
                tenant,
                task_id,
                caller,
            } => ("c", json!([tenant, task_id, caller])),
            Wakeup::Sweep => ("s", json!(true)),
            Wakeup::Resync => ("y", json!(true)),
        };
        let len = entry.to_string().len() + 8;
        if len + replica.len() + 16 > PAYLOAD_LIMIT {
            out.push(json!({ "r": replica, "y": true }).to_string());
            continue;
        }
        if size + len > PAYLOAD_LIMIT {
            flush(&mut current, &mut out);
            size = replica.len() + 16;
        }
        size += len;
        match entry {
            Value::Bool(_) => {
                current.insert(key.into(), entry);
            }
            entry => {
                let list = current
                    .entry(key)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(list) = list {
                    list.push(entry);
                }
            }
        }
    }
    flush(&mut current, &mut out);
    out
}

/// The wake-ups a notification's payload carries, unless this replica sent it. A payload that
/// does not parse (another writer on the channel) is a resync: harmless, and nothing is missed.
pub(super) fn wakeups_of(payload: &str, replica: &str) -> Vec<Wakeup> {
    let Ok(serde_json::Value::Object(value)) = serde_json::from_str(payload) else {
        return vec![Wakeup::Resync];
    };
    if value.get("r").and_then(|r| r.as_str()) == Some(replica) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (key, entries) in &value {
        let make = match key.as_str() {
            "t" => |tenant, task_id, _| Wakeup::Task { tenant, task_id },
            "c" => |tenant, task_id, caller| Wakeup::Cancel {
                tenant,
                task_id,
                caller,
            },
            "s" => {
                out.push(Wakeup::Sweep);
                continue;
            }
            "y" => {
                out.push(Wakeup::Resync);
                continue;
            }
            _ => continue,
        };
        let Some(entries) = entries.as_array() else {
            return vec![Wakeup::Resync];
        };
        for entry in entries {
            use serde_json::Value::String as S;
            match entry.as_array().map(Vec::as_slice) {
                Some([S(tenant), S(task_id)]) => {
                    out.push(make(tenant.clone(), task_id.clone(), String::new()));
                }
                Some([S(tenant), S(task_id), S(caller)]) => {
                    out.push(make(tenant.clone(), task_id.clone(), caller.clone()));
                }
                _ => return vec![Wakeup::Resync],
            }
        }
    }
    if out.is_empty() {
        return vec![Wakeup::Resync];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(tenant: &str, id: &str) -> Wakeup {
        Wakeup::Task {
            tenant: tenant.to_owned(),
            task_id: id.to_owned(),
        }
    }

    #[test]
    fn payloads_carry_every_wakeup_once_and_stay_under_the_limit() {
        let mut sent: BTreeSet<_> = (0..500)
            .map(|i| task("t", &format!("task-{i:04}")))
            .collect();
        sent.insert(Wakeup::Cancel {
            tenant: String::new(),
            task_id: "c".into(),
            caller: "alice".into(),
        });
        sent.insert(Wakeup::Sweep);
        let payloads = payloads("me", sent.clone());
        assert!(payloads.len() > 1, "500 tasks do not fit one payload");
        let mut heard = BTreeSet::new();
        for p in &payloads {
            assert!(p.len() <= PAYLOAD_LIMIT, "{} bytes", p.len());
            for w in wakeups_of(p, "another") {
                assert_ne!(w, Wakeup::Resync, "{p}");
                assert!(heard.insert(w));
            }
        }
        assert_eq!(heard, sent);
    }

    #[test]
    fn a_replica_ignores_its_own_and_odd_payloads_resync() {
        let p = payloads("me", BTreeSet::from([task("", "a\n\"b")]));
        assert_eq!(wakeups_of(&p[0], "me"), []);
        assert_eq!(wakeups_of(&p[0], "you"), [task("", "a\n\"b")]);
        let long = "x".repeat(PAYLOAD_LIMIT);
        let p = payloads("me", BTreeSet::from([task("", &long)]));
        assert_eq!(wakeups_of(&p[0], "you"), [Wakeup::Resync]);
        for odd in [
            "",
            "hello",
            "{}",
            r#"{"t": [[1, 2]]}"#,
            r#"{"t": [["a"]]}"#,
            r#"{"t": 3}"#,
        ] {
            assert_eq!(wakeups_of(odd, "you"), [Wakeup::Resync], "{odd}");
        }
    }
}
