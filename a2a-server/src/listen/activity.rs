//! What one connection is doing, for its idle timeout: the requests in progress ([`Activity`], one
//! [`InFlight`] per request, held by its answer's body until the answer is sent), and the request
//! body that must arrive before its deadline ([`DeadlineBody`]).

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Bytes, HttpBody};
use http_body::{Frame, SizeHint};
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The requests in progress on one connection, and since when it has had none.
#[derive(Debug)]
pub(crate) struct Activity {
    in_flight: AtomicUsize,
    quiet_since: Mutex<Instant>,
    changed: Notify,
}

impl Activity {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Activity {
            in_flight: AtomicUsize::new(0),
            quiet_since: Mutex::new(Instant::now()),
            changed: Notify::new(),
        })
    }

    /// A request starts; it ends when the returned guard is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.changed.notify_waiters();
        InFlight(self.clone())
    }

    /// Returns once the connection has had no request in progress for `timeout`.
    pub(crate) async fn idle_for(&self, timeout: Duration) {
        loop {
            // Registered before the state is read, so a change in between still wakes it.
            let changed = self.changed.notified();
            if self.in_flight.load(Ordering::SeqCst) > 0 {
                changed.await;
                continue;
            }
            let deadline = *self
                .quiet_since
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                + timeout;
            if Instant::now() >= deadline {
                return;
            }
            tokio::select! {
                () = tokio::time::sleep_until(deadline) => {}
                () = changed => {}
            }
        }
    }
}

/// One request in progress on a connection.
#[derive(Debug)]
pub(crate) struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        // The quiet time is stamped before the count drops, so a watcher that sees no request in
        // progress never reads the stamp of an older quiet spell.
        *self
            .0
            .quiet_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.0.changed.notify_waiters();
    }
}

/// An answer's body, holding its request's [`InFlight`] until the body is sent (or dropped): a
/// stream being answered keeps its connection from counting as idle.
pub(crate) struct TrackedBody<B> {
    inner: B,
    _in_flight: InFlight,
}

impl<B> TrackedBody<B> {
    pub(crate) fn new(inner: B, in_flight: InFlight) -> Self {
        TrackedBody {
            inner,
            _in_flight: in_flight,
        }
    }
}

impl<B: HttpBody + Unpin> HttpBody for TrackedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A request body that fails with [`BodyTimedOut`] when it has not ended by its deadline.
pub(crate) struct DeadlineBody<B> {
    inner: B,
    deadline: Pin<Box<Sleep>>,
    timeout: Duration,
}

impl<B> DeadlineBody<B> {
    /// `inner`, which must end within `timeout` from now.
    pub(crate) fn new(inner: B, timeout: Duration) -> Self {
        DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(timeout)),
            timeout,
        }
    }
}

impl<B> HttpBody for DeadlineBody<B>
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimedOut(this.timeout))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A request body that had not arrived in full when its time ran out.
#[derive(Debug)]
pub(crate) struct BodyTimedOut(Duration);

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body did not arrive within {} s",
            self.0.as_secs_f64()
        )
    }
}

impl std::error::Error for BodyTimedOut {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_connection_is_idle_only_after_its_last_request_ends_plus_the_timeout() {
        let activity = Activity::new();
        let timeout = Duration::from_secs(60);
        let request = activity.begin();
        // A request in progress for longer than the timeout never makes the connection idle.
        let idle = tokio::time::timeout(Duration::from_secs(300), activity.idle_for(timeout));
        assert!(idle.await.is_err(), "idle while a request was in progress");
        drop(request);
        let started = Instant::now();
        activity.idle_for(timeout).await;
        assert_eq!(started.elapsed(), timeout);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_that_starts_during_the_quiet_time_restarts_it() {
        let activity = Activity::new();
        let timeout = Duration::from_secs(60);
        let started = Instant::now();
        let watcher = {
            let activity = activity.clone();
            tokio::spawn(async move { activity.idle_for(timeout).await })
        };
        tokio::time::sleep(Duration::from_secs(50)).await;
        drop(activity.begin());
        watcher.await.expect("the watcher ends");
        assert_eq!(started.elapsed(), Duration::from_secs(110));
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_stalls_fails_at_its_deadline_naming_the_time() {
        let (mut sender, body) = tokio_body_channel();
        let mut body = DeadlineBody::new(body, Duration::from_secs(30));
        sender.push(Bytes::from_static(b"{\"jsonrpc\""));
        let first = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await;
        assert!(first.is_some_and(|frame| frame.is_ok()));
        let started = Instant::now();
        let error = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx))
            .await
            .expect("a frame or an error")
            .expect_err("the deadline passed");
        assert_eq!(started.elapsed(), Duration::from_secs(30));
        assert_eq!(
            error.to_string(),
            "the request body did not arrive within 30 s"
        );
    }

    /// A body whose frames the test pushes, and which never ends by itself.
    fn tokio_body_channel() -> (Frames, Frames) {
        let queue = Arc::new(Mutex::new(std::collections::VecDeque::new()));
        (Frames(queue.clone()), Frames(queue))
    }

    struct Frames(Arc<Mutex<std::collections::VecDeque<Bytes>>>);

    impl Frames {
        fn push(&mut self, bytes: Bytes) {
            self.0.lock().expect("not poisoned").push_back(bytes);
        }
    }

    impl HttpBody for Frames {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            match self.0.lock().expect("not poisoned").pop_front() {
                Some(bytes) => Poll::Ready(Some(Ok(Frame::data(bytes)))),
                None => Poll::Pending,
            }
        }
    }
}
