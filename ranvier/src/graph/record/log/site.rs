//! [`SiteRef`]: a source location as the log keeps it, one pointer wide: the `&'static Location` the engine's
//! `#[track_caller]` functions give (a live process), or a location read from a dump (`file:line:column` of a
//! process that is gone), interned so that equal locations are one pointer.
//!
//! The live path stores and compares these by pointer, as it compared `&'static Location`s: making one from a
//! `Location` is a cast, and comparing two is one pointer comparison. The low bit of the pointer tells the two apart
//! (both pointees are aligned to at least 4 bytes).

use std::collections::HashMap;
use std::fmt;
use std::panic::Location;
use std::ptr::NonNull;
use std::sync::Mutex;

/// A source location the trace log keeps: where a node was made, a source read, a signal written, a batch opened.
///
/// In a live process it is the caller's [`Location`]; in a log loaded from a dump ([`load_dump`](crate::trace::load_dump))
/// it is the `file:line:column` the dump names. Either way it answers [`file`](Self::file), [`line`](Self::line) and
/// [`column`](Self::column) as the `Location` did, and two are equal when they are the same location object (as the
/// trace compared `Location`s: two calls on one line are one site).
///
/// # Examples
///
/// ```
/// use ranvier::trace::SiteRef;
///
/// let here = SiteRef::caller();
/// assert_eq!(here.file(), file!());
/// assert_eq!(here.line(), line!() - 2);
/// assert!(here.location().is_some());
///
/// // a site read from a dump: one object per distinct location
/// let read = SiteRef::read("examples/examples/cart.rs", 225, 17);
/// assert_eq!(read, SiteRef::read("examples/examples/cart.rs", 225, 17));
/// assert_eq!((read.file(), read.line(), read.column()), ("examples/examples/cart.rs", 225, 17));
/// assert_eq!(read.to_string(), "examples/examples/cart.rs:225:17");
/// assert!(read.location().is_none());
/// ```
#[derive(Copy, Clone)]
pub struct SiteRef(NonNull<u8>);

/// A location read from a dump, leaked once per distinct location.
#[repr(align(8))]
struct ReadSite {
    file: &'static str,
    line: u32,
    column: u32,
}

// SAFETY: a `SiteRef` points at a `&'static Location` or a leaked `ReadSite`, both immutable for the rest of the
// process and themselves `Sync`; sharing or sending the pointer shares nothing mutable.
unsafe impl Send for SiteRef {}
// SAFETY: as for `Send`.
unsafe impl Sync for SiteRef {}

const READ_TAG: usize = 1;

impl SiteRef {
    /// The site of a live `Location` (a cast: no allocation, no look-up).
    #[inline(always)]
    pub fn live(location: &'static Location<'static>) -> SiteRef {
        SiteRef(NonNull::from(location).cast())
    }

    /// The caller's location, as the engine's `#[track_caller]` functions record it.
    #[track_caller]
    pub fn caller() -> SiteRef {
        SiteRef::live(Location::caller())
    }

    /// The site of `file:line:column` read from a dump: interned, so the same location read twice is the same site
    /// (equal, as one `Location` is to itself). Each distinct location is kept for the rest of the process.
    pub fn read(file: &str, line: u32, column: u32) -> SiteRef {
        /// The leaked file names, and the leaked sites by location (tagged addresses).
        type Interned = (HashMap<String, &'static str>, HashMap<(&'static str, u32, u32), SiteRef>);
        static INTERNED: Mutex<Option<Interned>> = Mutex::new(None);
        let mut interned = INTERNED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (files, sites) = interned.get_or_insert_with(Default::default);
        let file: &'static str = match files.get(file) {
            Some(leaked) => leaked,
            None => {
                let leaked: &'static str = Box::leak(file.to_owned().into_boxed_str());
                files.insert(file.to_owned(), leaked);
                leaked
            }
        };
        *sites.entry((file, line, column)).or_insert_with(|| {
            let site: &'static ReadSite = Box::leak(Box::new(ReadSite { file, line, column }));
            // aligned to 8: the tag bit is free
            SiteRef(NonNull::from(site).cast::<u8>().map_addr(|a| a | READ_TAG))
        })
    }

    #[inline(always)]
    fn tagged(self) -> bool {
        self.0.addr().get() & READ_TAG != 0
    }

    #[inline(always)]
    fn read_site(self) -> &'static ReadSite {
        // SAFETY: a tagged pointer was made by `read` from a leaked `ReadSite`, never freed.
        unsafe {
            self.0
                .map_addr(|a| std::num::NonZero::new(a.get() & !READ_TAG).unwrap_or(a))
                .cast::<ReadSite>()
                .as_ref()
        }
    }

    /// The live `Location`, or `None` for a site read from a dump.
    #[inline]
    pub fn location(self) -> Option<&'static Location<'static>> {
        if self.tagged() {
            None
        } else {
            // SAFETY: an untagged pointer was made by `live` from a `&'static Location<'static>`.
            Some(unsafe { self.0.cast::<Location<'static>>().as_ref() })
        }
    }

    /// The file, as `file!()` spells it where the location is.
    #[inline]
    pub fn file(self) -> &'static str {
        match self.location() {
            Some(location) => location.file(),
            None => self.read_site().file,
        }
    }

    /// The line, from 1.
    #[inline]
    pub fn line(self) -> u32 {
        match self.location() {
            Some(location) => location.line(),
            None => self.read_site().line,
        }
    }

    /// The column, from 1.
    #[inline]
    pub fn column(self) -> u32 {
        match self.location() {
            Some(location) => location.column(),
            None => self.read_site().column,
        }
    }

    /// The address that identifies the site (what [`PartialEq`] compares).
    #[inline(always)]
    pub(crate) fn key(self) -> usize {
        self.0.addr().get()
    }
}

/// `file`, kept for the rest of the process once (the file names of sites and records read from a dump).
pub(crate) fn intern_file(file: &str) -> &'static str {
    SiteRef::read(file, 0, 0).file()
}

impl From<&'static Location<'static>> for SiteRef {
    #[inline(always)]
    fn from(location: &'static Location<'static>) -> Self {
        SiteRef::live(location)
    }
}

impl PartialEq for SiteRef {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for SiteRef {}

impl std::hash::Hash for SiteRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl fmt::Display for SiteRef {
    /// `file:line:column`, as `Location` displays.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file(), self.line(), self.column())
    }
}

impl fmt::Debug for SiteRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SiteRef")
            .field("file", &self.file())
            .field("line", &self.line())
            .field("column", &self.column())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_sites_compare_by_location_and_read_sites_by_value() {
        let one = || SiteRef::caller();
        let (a, b) = (one(), one());
        assert_eq!(a, b, "one line, one location");
        assert_ne!(a, SiteRef::caller());
        let read = SiteRef::read("src/a.rs", 3, 4);
        assert_eq!(read, SiteRef::read("src/a.rs", 3, 4));
        assert_ne!(read, SiteRef::read("src/a.rs", 3, 5));
        assert_ne!(read, SiteRef::read("src/b.rs", 3, 4));
        // a read site is never equal to a live one, even at the same place
        let live = SiteRef::caller();
        assert_ne!(SiteRef::read(live.file(), live.line(), live.column()), live);
        assert_eq!(format!("{read:?}"), r#"SiteRef { file: "src/a.rs", line: 3, column: 4 }"#);
        assert_eq!(std::mem::size_of::<Option<SiteRef>>(), std::mem::size_of::<usize>());
    }
}
