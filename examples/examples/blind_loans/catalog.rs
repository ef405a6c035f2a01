//! The county catalogue, a remote service the desk asks where a title is shelved and how many members across the
//! county hold it. Each call takes a network hop (one turn of the executor) before it answers.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// One network hop: pending once, then ready.
struct Hop(bool);

impl Future for Hop {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// Whether `isbn` is an ISBN-13 the county catalogue knows (13 digits starting 978 or 979).
fn known(isbn: &str) -> bool {
    isbn.len() == 13
        && isbn.chars().all(|c| c.is_ascii_digit())
        && (isbn.starts_with("978") || isbn.starts_with("979"))
}

/// Where `isbn` is shelved, as `"<class> <code>"` (`"823 ADA"`).
///
/// # Errors
///
/// The catalogue's answer for an ISBN it does not know.
pub async fn shelf_mark(isbn: String) -> Result<String, String> {
    Hop(false).await;
    if !known(&isbn) {
        return Err(format!("the county catalogue has no ISBN {isbn:?}"));
    }
    let class = &isbn[3..6];
    let code: String = isbn[6..9]
        .chars()
        .map(|d| char::from(b'A' + (d as u8 - b'0')))
        .collect();
    Ok(format!("{class} {code}"))
}

/// Members holding `isbn` at the county's other branches.
///
/// # Errors
///
/// The catalogue's answer for an ISBN it does not know.
pub async fn county_holds(isbn: String) -> Result<usize, String> {
    Hop(false).await;
    if !known(&isbn) {
        return Err(format!("the county catalogue has no ISBN {isbn:?}"));
    }
    let digits = isbn.bytes().map(|b| usize::from(b - b'0')).sum::<usize>();
    Ok(digits % 4)
}
