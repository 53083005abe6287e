//! The memory store's ordered indexes: what makes one page of `list_tasks` cost the page, not
//! the tenant.
//!
//! A tenant's tasks are kept in a hash map by id (see `Tenant` in the parent module); these
//! indexes hold only their [`Key`]s, in list order. Each [`Orders`] is one set of tasks (every
//! owner's, or one owner's) in that order, and the same tasks per state and per context, each
//! in that order too, so that a query with one of those filters walks only the tasks that match
//! it, from the page token's position down, and stops when the page is full. A
//! `status_timestamp_after` filter is the walk's lower bound: a task with a status time sorts by
//! it. A count (`total_size`) is the length of what is walked when that is exactly what the
//! query selects; otherwise the walk is counted (see [`Plan::exact`]).

use std::collections::{BTreeSet, HashMap};
use std::ops::Bound::{Excluded, Included};
use std::sync::Arc;

use a2a_types::rt::UnixTime;

use super::super::SortKey;

/// Where a task sorts in a list: [`SortKey`], with the id shared (one allocation per task, for
/// the task map and all of its index entries).
///
/// The fields are in [`SortKey`]'s order and compare the same way (`str` and `String` compare
/// bytewise), so a page token's position is a `Key` in these orders.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Key {
    seconds: i64,
    nanos: u32,
    pub(super) id: Arc<str>,
}

impl Key {
    /// The key of a sort position (the id copied).
    pub(super) fn of(sort: &SortKey) -> Key {
        Key {
            seconds: sort.seconds,
            nanos: sort.nanos,
            id: Arc::from(sort.id.as_str()),
        }
    }

    /// Whether the key's time is before `time`.
    pub(super) fn before(&self, time: UnixTime) -> bool {
        (self.seconds, self.nanos) < (time.seconds, time.nanos)
    }

    /// The sort position of this key (for a page token).
    pub(super) fn sort_key(&self) -> SortKey {
        SortKey {
            seconds: self.seconds,
            nanos: self.nanos,
            id: self.id.as_ref().to_owned(),
        }
    }
}

/// The part of a list one call reads: keys at or above `lower` (a time filter's least key, or
/// the least of all) and below `upper` (the page token's position, or above every key); a count
/// reads up to `top`. Built before the lock is taken (the keys allocate).
pub(super) struct Bounds {
    pub(super) lower: Key,
    pub(super) upper: Key,
    pub(super) top: Key,
    /// Whether the query has a time filter (`lower` is its bound).
    pub(super) timed: bool,
    /// Whether it has a page token (`upper` is its position).
    pub(super) paged: bool,
}

impl Bounds {
    /// The bounds of a query with this time filter and this page token's position.
    pub(super) fn new(after: Option<UnixTime>, token: Option<&SortKey>) -> Bounds {
        // The empty id is the least: the key of a time with it is at or below every key at
        // that time.
        let least: Arc<str> = Arc::from("");
        let at = |seconds, nanos| Key {
            seconds,
            nanos,
            id: Arc::clone(&least),
        };
        // No stored key has `nanos` of a billion or more (times and tokens are checked), so
        // this key is above every one.
        let top = at(i64::MAX, u32::MAX);
        Bounds {
            lower: after.map_or_else(|| at(i64::MIN, 0), |t| at(t.seconds, t.nanos)),
            upper: token.map_or_else(|| top.clone(), Key::of),
            top,
            timed: after.is_some(),
            paged: token.is_some(),
        }
    }
}

/// What the indexes file a task under.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Facets<'a> {
    pub(super) key: &'a Key,
    pub(super) context: Option<&'a str>,
    /// The state's wire name: what a query's state is compared by.
    pub(super) state: &'a str,
    /// Whether the task has a status time (then its key's time is that time).
    pub(super) dated: bool,
}

/// A set of tasks (every owner's, or one owner's) in list order, and the same tasks by state
/// and by context, each in list order.
#[derive(Debug, Default)]
pub(super) struct Orders {
    all: BTreeSet<Key>,
    /// By the state's wire name: a handful of sets.
    by_state: HashMap<String, BTreeSet<Key>>,
    /// The tasks with a context (a task without one is in none), by context (its number in
    /// `contexts`), then in list order. One set for every context, not one each: a context
    /// often has a task or two, and a set of its own would cost a B-tree node (hundreds of
    /// bytes) for each. Numbers, not names: they compare at once, where names would be
    /// compared byte by byte at every step down the tree.
    by_context: BTreeSet<(u64, Key)>,
    /// Each context of `by_context`: its number, and how many tasks it has.
    contexts: HashMap<String, Context>,
    /// The number of the next new context.
    next_context: u64,
    /// How many of the tasks have no status time: while none has, a time bound on the walk is
    /// the whole time filter (see [`Plan::exact`]).
    undated: usize,
}

/// A context of [`Orders::by_context`].
#[derive(Debug)]
struct Context {
    /// What its entries are filed under.
    number: u64,
    /// How many there are.
    len: usize,
}

/// The tasks a query walks: a set, or one context's part of a set by context.
#[derive(Clone, Copy)]
pub(super) enum Walk<'a> {
    /// Every key of the set.
    Keys(&'a BTreeSet<Key>),
    /// The keys filed under this context number.
    Context(&'a BTreeSet<(u64, Key)>, u64),
}

impl<'a> Walk<'a> {
    /// The keys at or above `lower` and below `upper`, in list order (descending).
    pub(super) fn newest_first(self, lower: &Key, upper: &Key) -> impl Iterator<Item = &'a Key> {
        // `BTreeSet::range` panics when its start is above its end, as a time bound above the
        // page token's position would make it: that range is empty.
        let (keys, context) = match self {
            _ if lower > upper => (None, None),
            Walk::Keys(set) => (
                Some(set.range::<Key, _>((Included(lower), Excluded(upper)))),
                None,
            ),
            Walk::Context(set, number) => {
                let (lower, upper) = ((number, lower.clone()), (number, upper.clone()));
                (None, Some(set.range((Included(lower), Excluded(upper)))))
            }
        };
        let keys = keys.into_iter().flat_map(|range| range.rev());
        let context = context
            .into_iter()
            .flat_map(|range| range.rev().map(|(_, key)| key));
        keys.chain(context)
    }
}

/// What a query walks, and whether every key of it in the walked range matches.
pub(super) struct Plan<'a> {
    pub(super) walk: Walk<'a>,
    /// How many tasks `walk` holds.
    pub(super) len: usize,
    /// `true` when every key of `walk` at or above the time bound matches the query: then no
    /// entry is read to check it, and the count of a query without a time is `len`. `false`
    /// when the query names both a context and a state (the smaller of the two is walked, each
    /// entry checked for the other filter), or a time when some task of the set has no status
    /// time (such a task sorts by its write time but never matches a time filter).
    pub(super) exact: bool,
}

impl Orders {
    fn insert(&mut self, f: &Facets<'_>) {
        self.all.insert(f.key.clone());
        match self.by_state.get_mut(f.state) {
            Some(set) => {
                set.insert(f.key.clone());
            }
            None => {
                let set = BTreeSet::from([f.key.clone()]);
                self.by_state.insert(f.state.to_owned(), set);
            }
        }
        if let Some(context) = f.context {
            let number = match self.contexts.get_mut(context) {
                Some(c) => {
                    c.len += 1;
                    c.number
                }
                None => {
                    let number = self.next_context;
                    self.next_context += 1;
                    let c = Context { number, len: 1 };
                    self.contexts.insert(context.to_owned(), c);
                    number
                }
            };
            self.by_context.insert((number, f.key.clone()));
        }
        if !f.dated {
            self.undated += 1;
        }
    }

    fn remove(&mut self, f: &Facets<'_>) {
        self.all.remove(f.key);
        if let Some(set) = self.by_state.get_mut(f.state) {
            set.remove(f.key);
            if set.is_empty() {
                self.by_state.remove(f.state);
            }
        }
        if let Some(context) = f.context {
            if let Some(c) = self.contexts.get_mut(context) {
                if self.by_context.remove(&(c.number, f.key.clone())) {
                    c.len = c.len.saturating_sub(1);
                }
                // A context goes with its last task: contexts come and go, and the map would
                // otherwise keep every one ever seen.
                if c.len == 0 {
                    self.contexts.remove(context);
                }
            }
        }
        if !f.dated {
            self.undated = self.undated.saturating_sub(1);
        }
    }

    /// How many tasks there are.
    pub(super) fn len(&self) -> usize {
        self.all.len()
    }

    /// What to walk for a query with these filters (`timed`: it has a time filter): the
    /// context's tasks or the state's when it names one, the fewer of the two when it names
    /// both, else all. `None` when it names a context or a state no task has: nothing matches.
    pub(super) fn plan(
        &self,
        context: Option<&str>,
        state: Option<&str>,
        timed: bool,
    ) -> Option<Plan<'_>> {
        let by_context = match context {
            None => None,
            Some(c) => {
                let c = self.contexts.get(c)?;
                Some((Walk::Context(&self.by_context, c.number), c.len))
            }
        };
        let by_state = match state {
            None => None,
            Some(s) => {
                let set = self.by_state.get(s)?;
                Some((Walk::Keys(set), set.len()))
            }
        };
        let both = by_context.is_some() && by_state.is_some();
        let (walk, len) = match (by_context, by_state) {
            (Some(c), Some(s)) if c.1 <= s.1 => c,
            (Some(_), Some(s)) => s,
            (Some(c), None) => c,
            (None, Some(s)) => s,
            (None, None) => (Walk::Keys(&self.all), self.all.len()),
        };
        Some(Plan {
            walk,
            len,
            exact: !(both || timed && self.undated > 0),
        })
    }
}

#[cfg(test)]
impl PartialEq for Orders {
    /// The same tasks, filed the same way, whatever numbers the contexts were given.
    fn eq(&self, other: &Orders) -> bool {
        type Named<'a> = std::collections::BTreeMap<&'a str, Vec<&'a Key>>;
        fn by_name(o: &Orders) -> Option<Named<'_>> {
            let mut by_number: HashMap<u64, Vec<&Key>> = HashMap::new();
            for (number, key) in &o.by_context {
                by_number.entry(*number).or_default().push(key);
            }
            let named: Option<Named<'_>> = o
                .contexts
                .iter()
                .map(|(name, c)| {
                    let keys = by_number.remove(&c.number).filter(|k| k.len() == c.len)?;
                    Some((name.as_str(), keys))
                })
                .collect();
            // Every numbered entry is a named context's.
            named.filter(|_| by_number.is_empty())
        }
        let named = by_name(self);
        named.is_some()
            && named == by_name(other)
            && (&self.all, &self.by_state, self.undated)
                == (&other.all, &other.by_state, other.undated)
    }
}

/// One tenant's indexes: every owner's tasks, and each owner's.
#[derive(Debug, Default)]
#[cfg_attr(test, derive(PartialEq))]
pub(super) struct TenantIndex {
    every: Orders,
    owners: HashMap<String, Orders>,
}

impl TenantIndex {
    /// Files a task of `owner`.
    pub(super) fn insert(&mut self, owner: &str, f: &Facets<'_>) {
        self.every.insert(f);
        match self.owners.get_mut(owner) {
            Some(orders) => orders.insert(f),
            None => {
                let mut orders = Orders::default();
                orders.insert(f);
                self.owners.insert(owner.to_owned(), orders);
            }
        }
    }

    /// Unfiles a task of `owner`, filed under `f`.
    pub(super) fn remove(&mut self, owner: &str, f: &Facets<'_>) {
        self.every.remove(f);
        if let Some(orders) = self.owners.get_mut(owner) {
            orders.remove(f);
            if orders.len() == 0 {
                self.owners.remove(owner);
            }
        }
    }

    /// Refiles a task of `owner` written again: from `old` to `new` (nothing to do when the
    /// write changed none of its facets, as a message appended to its history).
    pub(super) fn update(&mut self, owner: &str, old: &Facets<'_>, new: &Facets<'_>) {
        if old != new {
            self.remove(owner, old);
            self.insert(owner, new);
        }
    }

    /// The tasks a scope sees: `owner`'s, or every owner's; `None` when the owner has none.
    pub(super) fn orders(&self, owner: Option<&str>) -> Option<&Orders> {
        match owner {
            None => Some(&self.every),
            Some(owner) => self.owners.get(owner),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seconds: i64, id: &str) -> Key {
        Key {
            seconds,
            nanos: 0,
            id: Arc::from(id),
        }
    }

    #[test]
    fn keys_order_as_sort_keys() {
        let sorts = [
            SortKey {
                seconds: 1,
                nanos: 5,
                id: "b".into(),
            },
            SortKey {
                seconds: 1,
                nanos: 5,
                id: "a".into(),
            },
            SortKey {
                seconds: -3,
                nanos: 999_999_999,
                id: "z".into(),
            },
            SortKey {
                seconds: 1,
                nanos: 6,
                id: String::new(),
            },
        ];
        for a in &sorts {
            assert_eq!(Key::of(a).sort_key(), *a);
            for b in &sorts {
                assert_eq!(Key::of(a).cmp(&Key::of(b)), a.cmp(b), "{a:?} {b:?}");
            }
        }
        let at = UnixTime {
            seconds: 1,
            nanos: 5,
        };
        let floor = Bounds::new(Some(at), None).lower;
        assert!(floor <= Key::of(&sorts[1]) && floor > Key::of(&sorts[2]));
    }

    #[test]
    fn walks_stay_in_their_bounds_and_crossed_bounds_are_empty() {
        let set: BTreeSet<Key> = (0..10).map(|i| key(i, "t")).collect();
        let by_context: BTreeSet<(u64, Key)> = (0..10)
            .flat_map(|i| [1, 2, 3].map(|c| (c, key(i, "t"))))
            .collect();
        let bounds = |lower: Option<i64>, upper: Option<Key>| {
            let at = lower.map(|seconds| UnixTime { seconds, nanos: 0 });
            Bounds::new(at, upper.map(|k| k.sort_key()).as_ref())
        };
        for walk in [Walk::Keys(&set), Walk::Context(&by_context, 2)] {
            let seconds = |bounds: Bounds| -> Vec<i64> {
                walk.newest_first(&bounds.lower, &bounds.upper)
                    .map(|k| k.seconds)
                    .collect()
            };
            assert_eq!(seconds(bounds(None, None)), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
            assert_eq!(seconds(bounds(Some(7), None)), [9, 8, 7]);
            assert_eq!(seconds(bounds(None, Some(key(2, "t")))), [1, 0]);
            assert_eq!(seconds(bounds(Some(3), Some(key(5, "t")))), [4, 3]);
            // The time bound above the token, and at it: neither panics.
            assert_eq!(
                seconds(bounds(Some(6), Some(key(5, "t")))),
                Vec::<i64>::new()
            );
            assert_eq!(
                seconds(bounds(Some(5), Some(key(5, "")))),
                Vec::<i64>::new()
            );
            let top = bounds(Some(i64::MAX), None);
            assert!(walk.newest_first(&top.lower, &top.top).next().is_none());
        }
    }

    #[test]
    fn empty_sets_and_contexts_are_dropped() {
        let k = key(1, "t");
        let f = Facets {
            key: &k,
            context: Some("c"),
            state: "TASK_STATE_WORKING",
            dated: false,
        };
        let mut index = TenantIndex::default();
        index.insert("alice", &f);
        let plan = index
            .orders(Some("alice"))
            .and_then(|o| o.plan(Some("c"), None, true));
        assert!(plan.is_some_and(|p| p.len == 1 && !p.exact));
        index.remove("alice", &f);
        assert!(index.orders(Some("alice")).is_none());
        assert!(index.every == Orders::default());
    }
}
