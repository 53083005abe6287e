//! [`Driver`]: an execution polled by the call that waits for it.

use std::future::Future;
use std::pin::Pin;

/// An execution's future, not yet spawned: a call that waits for it polls it in its own task
/// ([`Driver::drive`]), and whatever is left when the call stops waiting (it has its answer, or
/// its client went away and the call was dropped) is spawned onto the runtime, so the execution
/// always runs to its end.
///
/// A blocking `SendMessage` so costs no spawn and no wake-up across threads: the execution runs
/// where the call is polled. A stream detaches at once: its body is polled only as fast as its
/// client reads, and the execution must not wait for a slow reader.
pub(super) struct Driver {
    pub(super) run: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

impl Driver {
    /// Waits for `until`, polling the execution meanwhile (the execution first, so what it sends
    /// is there when `until` is polled).
    pub(super) async fn drive<T>(&mut self, until: impl Future<Output = T>) -> T {
        let mut until = std::pin::pin!(until);
        std::future::poll_fn(|cx| {
            if let Some(run) = &mut self.run {
                if run.as_mut().poll(cx).is_ready() {
                    self.run = None;
                }
            }
            until.as_mut().poll(cx)
        })
        .await
    }

    /// Spawns what is left of the execution onto the runtime.
    pub(super) fn detach(&mut self) {
        if let Some(run) = self.run.take() {
            // Outside a runtime (it is shutting down) there is nothing to run it on: it is
            // dropped, as the runtime drops its own tasks then.
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(run);
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.detach();
    }
}
