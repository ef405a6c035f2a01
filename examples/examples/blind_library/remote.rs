//! The services the desk calls over the network, simulated: the regional catalogue (which other libraries hold a
//! title, and how soon they can send a copy) and the reminder service (email or text message).

use std::fmt;
use std::time::Duration;

/// A library of the region that can lend a title.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// The library.
    pub library: &'static str,
    /// How many copies it holds.
    pub copies: u32,
    /// Days for a copy to reach us.
    pub days: u32,
}

/// The regional catalogue's offers for the title `title` (by our catalogue number).
///
/// # Errors
///
/// When the catalogue does not answer for it.
pub async fn regional_offers(title: u32) -> Result<Vec<Offer>, String> {
    tokio::time::sleep(Duration::from_millis(20)).await;
    match title {
        1 => Ok(vec![
            Offer {
                library: "Millford",
                copies: 3,
                days: 5,
            },
            Offer {
                library: "Eastbrook",
                copies: 1,
                days: 2,
            },
        ]),
        2 => Ok(vec![Offer {
            library: "Eastbrook",
            copies: 2,
            days: 3,
        }]),
        3 => Err("the regional catalogue timed out".to_owned()),
        _ => Ok(Vec::new()),
    }
}

/// How a reminder went out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Channel {
    /// By email.
    Email,
    /// By text message.
    Sms,
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Channel::Email => "email",
            Channel::Sms => "text message",
        })
    }
}

/// Sends `text` to `member`.
///
/// # Errors
///
/// When the service has no way to reach them, or the text is empty.
pub async fn remind(member: &str, text: &str) -> Result<Channel, String> {
    tokio::time::sleep(Duration::from_millis(15)).await;
    if text.is_empty() {
        return Err("nothing to send".to_owned());
    }
    match member {
        "Ada" | "Cy" => Ok(Channel::Email),
        "Bo" => Ok(Channel::Sms),
        _ => Err("no contact details on file".to_owned()),
    }
}
