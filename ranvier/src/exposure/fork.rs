//! Forks: a sandbox copy of a running app, to try messages on before sending them to the live one.
//!
//! A fork is a second graph, on a graph thread of its own, built by the same registration as the live app (its
//! build fn and `#[expose]`) and then given the live app's models: every message source's model is cloned on the
//! live graph thread, moved to the fork's thread and written into the fork's matching `Mvu` before the fork's
//! exposure starts, so the fork's first snapshot is the live app's state. [`ExposureHandle::fork`] makes one; the
//! [`Fork`] it answers holds the fork's own [`ExposureHandle`], which dispatches, snapshots and diffs like any other.
//!
//! # What a fork copies, and what it never touches
//!
//! - **Copied:** the model of every message source (`#[expose(messages)]`, or [`Exposure::fork_model`]). Everything
//!   derived from the models (memos, exposed values) is recomputed from them in the fork.
//! - **Not copied:** state outside the models (a signal written by an effect or a timer, an in-flight async value):
//!   the fork starts it as the build fn makes it. Replaying the journal would not copy it either, and would cost one
//!   dispatch per message ever sent; cloning the models costs one clone per message source.
//! - **Isolated:** the fork has its own exposure, so its messages never reach the live app, its journal (in memory
//!   only: no `RANVIER_JOURNAL` file, no [`Exposure::journal_file`]), its interrupts or its subscribers. Its versions
//!   continue from the live version it was made at, so its step lines read `→ v(n+1)` after a fork of `vn`.
//! - **Approvals:** a message that waits for a person on the live app runs straight away in a fork (nothing it does
//!   leaves the fork; the live app still asks when the message is sent there).
//! - **Effects, commands, timers and flights:** everything the build fn makes runs against the fork's own nodes: an
//!   `Mvu`'s commands, the fork's timers and its async values' flights. An effect or command that reaches outside
//!   the process (a file, a network service, a payment) must opt in to running in a fork: it checks
//!   [`allows_outside_io`], which is `false` on a fork's graph thread (unless the fork was made with
//!   [`ForkOptions::outside_io`]) and `true` everywhere else. It is `false` while the fork is being made in any case:
//!   an effect woken by writing the live models in would repeat what the live app already did outside.
//!
//! # What an app must provide
//!
//! An app served by [`run_stdio`](crate::mcp::run_stdio) and friends, or started with [`Exposure::forks`] and an
//! `#[expose]` struct, has forks without extra code: the macro registers each message source's model (when the
//! model is `Send`; a model that is not makes [`ExposureHandle::fork`] answer [`ForkError::NotSend`] naming it).
//! An app that registers by hand provides what the macros generate: [`Exposure::fork_with`], a setup that builds a
//! fresh copy of its graph and registers it on the exposure it is given, and [`Exposure::fork_model`] for each
//! `Mvu` whose messages it registers, in the same order in the setup as in the live registration.
//!
//! # Examples
//!
//! ```
//! use ranvier::host::{block_on, GraphHost};
//! use ranvier::exposure::{Exposure, ExposeError};
//! use ranvier::{Messages, Mvu, expose};
//!
//! #[derive(Debug, Messages)]
//! enum Msg {
//!     /// Adds one.
//!     Increment,
//! }
//!
//! #[expose]
//! struct Counter {
//!     #[expose(messages, value)]
//!     count: Mvu<u64, Msg>,
//! }
//!
//! fn build() -> Counter {
//!     Counter { count: Mvu::new(0, |Msg::Increment, count| count + 1) }
//! }
//!
//! let host = GraphHost::start(|| {
//!     let app = build();
//!     let mut exposure = Exposure::new();
//!     app.expose(&mut exposure)?;
//!     exposure.forks(build);
//!     Ok::<_, ExposeError>((app, exposure.start()?))
//! })?;
//! # use ranvier::Expose as _;
//! let live = host.invoke(|(_, handle)| handle.clone()).wait()?;
//! block_on(live.dispatch("increment", serde_json::json!({}))).unwrap();
//!
//! let fork = block_on(live.fork(Default::default()))?;
//! assert_eq!(fork.handle().snapshot().get("count"), Some(&serde_json::json!(1)));
//! let tried = block_on(fork.handle().dispatch("increment", serde_json::json!({}))).unwrap().ran().unwrap();
//! assert_eq!((tried.version, tried.get("count")), (2, Some(&serde_json::json!(2))));
//! // the live app never saw it
//! assert_eq!((live.version(), live.journal().len()), (1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

use super::error::ExposeError;
use super::handle::ExposureHandle;
use super::registry::{self, Carried, ModelPort};
use super::{Exposure, ForkSetup};
use crate::Mvu;
use crate::host::{GraphHost, HostError};

thread_local! {
    /// Set on a fork's graph thread: `(is a fork, may reach outside)`.
    static FORK: Cell<(bool, bool)> = const { Cell::new((false, true)) };
}

/// Whether the calling thread is a fork's graph thread.
pub fn is_fork() -> bool {
    FORK.with(|fork| fork.get().0)
}

/// Whether an effect or command running on the calling thread may reach outside the process (write a file, call a
/// service): `true` on the live app's graph thread (and any thread that is not a fork's), `false` on a fork's unless
/// it was made with [`ForkOptions::outside_io`]. An effect that reaches outside checks it and skips its I/O when it
/// is `false`: outside I/O is opt-in per effect in a fork.
///
/// # Examples
///
/// ```
/// assert!(ranvier::exposure::fork::allows_outside_io()); // not on a fork's graph thread
/// ```
pub fn allows_outside_io() -> bool {
    FORK.with(|fork| fork.get().1)
}

/// How [`ExposureHandle::fork`] makes a fork.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ForkOptions {
    /// Lets the fork's effects and commands reach outside the process ([`allows_outside_io`] answers `true` on the
    /// fork's graph thread once the fork is made: not while its build runs and the live models are written in, so
    /// an effect those writes wake does not repeat what the live app already did). Off by default.
    pub outside_io: bool,
}

impl ForkOptions {
    /// Lets the fork's effects reach outside the process (see [`allows_outside_io`]).
    pub fn outside_io(mut self, allowed: bool) -> Self {
        self.outside_io = allowed;
        self
    }
}

/// Why [`ExposureHandle::fork`] could not make a fork.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForkError {
    /// The app registered no way to build a copy of itself.
    #[error(
        "this app cannot be forked: it registered no fork setup (an app served by run_stdio or serve_app_* has one; \
         an app that starts its own exposure calls Exposure::forks(build) or Exposure::fork_with(setup))"
    )]
    NotForkable,
    /// A message source's model is not `Send`, so it cannot be moved to the fork's graph thread.
    #[error(
        "the model of {0} cannot be copied into a fork: it is not Send (it holds an Rc or a RefCell, say); make it Send \
         to fork this app"
    )]
    NotSend(String),
    /// The fork's build registered message sources that differ from the live app's (in number or model type).
    #[error("the fork's build does not match the live app: {0}")]
    Mismatch(String),
    /// The fork's build failed or panicked.
    #[error("the fork's build failed: {0}")]
    Build(String),
    /// The live app's graph is gone (its host was disposed).
    #[error("the live app is gone: {0}")]
    Host(#[from] HostError),
}

/// What a fork's graph thread keeps: what the setup returned, and the fork's exposure.
type ForkApp = (Box<dyn Any>, ExposureHandle);

/// A running fork: a copy of the live app on a graph thread of its own. Dropping it (or [`dispose`](Self::dispose))
/// stops that thread; the live app is untouched either way.
pub struct Fork {
    host: GraphHost<ForkApp>,
    handle: ExposureHandle,
    base: u64,
}

impl fmt::Debug for Fork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fork")
            .field("base", &self.base)
            .field("version", &self.handle.version())
            .finish_non_exhaustive()
    }
}

impl Fork {
    /// The fork's exposure: dispatch to it, read its snapshot, compare it with the live one.
    pub fn handle(&self) -> &ExposureHandle {
        &self.handle
    }

    /// The live version the fork was made at (its first snapshot's version).
    pub fn base_version(&self) -> u64 {
        self.base
    }

    /// Stops the fork's graph thread (after the work running on it). Dropping the fork does the same.
    pub fn dispose(&self) {
        self.host.dispose();
    }
}

impl Exposure {
    /// Lets this app be forked ([`ExposureHandle::fork`]): `build` makes a fresh copy of the app's graph (the same
    /// fn that built the live one) and its `#[expose]` registers it. The copy then gets the live models (see the
    /// [fork module](super::fork)).
    pub fn forks<A: crate::Expose + 'static>(
        &mut self,
        build: impl Fn() -> A + Send + Sync + 'static,
    ) -> &mut Self {
        self.fork_with(move |exposure| {
            let app = build();
            app.expose(exposure)?;
            Ok(Box::new(app) as Box<dyn Any>)
        })
    }

    /// Lets an app that registers by hand be forked: `setup` builds a fresh copy of the app's graph, registers it on
    /// the exposure it is given as the live app was registered (with [`fork_model`](Self::fork_model) for each
    /// message source, in the same order), and returns what must live as long as the fork.
    pub fn fork_with(
        &mut self,
        setup: impl Fn(&mut Exposure) -> Result<Box<dyn Any>, ExposeError> + Send + Sync + 'static,
    ) -> &mut Self {
        self.fork_setup = Some(Arc::new(setup));
        self
    }

    /// Registers `mvu`'s model to be copied into forks (the `#[expose(messages)]` macro calls it for every message
    /// source whose model is `Send`). Register the same sources in the same order in the live app and the fork's
    /// setup.
    pub fn fork_model<Model, Msg>(&mut self, mvu: &Mvu<Model, Msg>) -> &mut Self
    where
        Model: Clone + PartialEq + fmt::Debug + Send + 'static,
        Msg: fmt::Debug + 'static,
    {
        self.ports.push(ModelPort::new(mvu));
        self
    }

    /// Notes a message source whose model cannot be copied into a fork (it is not `Send`): forking then answers
    /// [`ForkError::NotSend`] naming it. The macro calls it; an app registering by hand has no need to.
    #[doc(hidden)]
    pub fn fork_model_not_send(&mut self, type_name: &'static str) -> &mut Self {
        self.ports.push(ModelPort::not_send(type_name));
        self
    }
}

impl ExposureHandle {
    /// Whether this app can be forked (it registered a fork setup).
    pub fn forkable(&self) -> bool {
        self.shared().fork_setup.is_some()
    }

    /// Makes a fork of the app at its current state: clones every message source's model on the live graph thread,
    /// builds a fresh copy of the graph on a new graph thread, writes the models into it and starts its exposure.
    /// See the [fork module](super::fork) for what is copied and what a fork never touches.
    ///
    /// # Errors
    ///
    /// A [`ForkError`]: the app registered no fork setup, a model is not `Send`, the fork's build failed or does not
    /// match the live app, or the live app is gone.
    pub async fn fork(&self, options: ForkOptions) -> Result<Fork, ForkError> {
        let Some(setup) = self
            .shared()
            .fork_setup
            .as_ref()
            .and_then(|setup| setup.downcast_ref::<ForkSetup>())
            .cloned()
        else {
            return Err(ForkError::NotForkable);
        };
        let id = self.shared().id;
        let exported = self
            .on_graph(move || -> Result<(u64, Vec<Carried>), ForkError> {
                let side = registry::get(id).ok_or(ForkError::Host(HostError::Disposed))?;
                let version = side.publisher.current().version;
                let models = side
                    .ports
                    .iter()
                    .map(|port| match &port.export {
                        Some(export) => Ok(export()),
                        None => Err(ForkError::NotSend(port.type_name.to_owned())),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((version, models))
            })
            .await??;
        let (base, models) = exported;
        let outside_io = options.outside_io;
        let host = GraphHost::start(move || -> Result<ForkApp, ForkError> {
            // Building the copy and writing the live models in replays nothing that happened on the live app: the
            // effects those writes wake already reached outside there, so they do not again here. Outside I/O (if
            // opted in) is for what the fork's own messages cause.
            FORK.with(|fork| fork.set((true, false)));
            let mut exposure = Exposure::new();
            let kept = setup(&mut exposure).map_err(|e| ForkError::Build(e.to_string()))?;
            if exposure.ports.len() != models.len() {
                return Err(ForkError::Mismatch(format!(
                    "the live app copies {} model(s), the fork's build registered {}",
                    models.len(),
                    exposure.ports.len()
                )));
            }
            crate::batch(|| {
                for (port, model) in exposure.ports.iter().zip(models) {
                    (port.import)(model).map_err(|expected| {
                        ForkError::Mismatch(format!(
                            "a model of another type reached the fork's {expected}"
                        ))
                    })?;
                }
                Ok::<_, ForkError>(())
            })?;
            FORK.with(|fork| fork.set((true, outside_io)));
            exposure.fork_setup = Some(setup);
            exposure.fork_of = Some(base);
            exposure.require_approval(false);
            let handle = exposure
                .start()
                .map_err(|e| ForkError::Build(e.to_string()))?;
            Ok((kept, handle))
        })
        .map_err(|error| match &error {
            HostError::Setup(cause) => cause
                .downcast_ref::<ForkError>()
                .cloned()
                .unwrap_or_else(|| ForkError::Build(cause.to_string())),
            other => ForkError::Build(other.to_string()),
        })?;
        let handle = host
            .invoke(|(_, handle)| handle.clone())
            .await
            .map_err(|e| ForkError::Build(e.to_string()))?;
        Ok(Fork { host, handle, base })
    }
}
